# SPDX-License-Identifier: GPL-2.0
# PNGs for Documentation/perf-sched-policies.md from the raw CSVs.
# gnuplot -e "d='Documentation/perf/sched'" tools/sim/b/plots.gp
set datafile separator ","
set terminal pngcairo size 800,500 noenhanced
set key top left
set grid

# MIP decision time: CDF over the instances.
set output d."/mip/mip_decide.png"
set title "MIP decision time, 100 jobs x 128 GPUs x 8 options (1,000 instances)"
set xlabel "seconds"
set ylabel "fraction of decisions"
set logscale x
stats d."/mip/mip_decide.csv" using 2 nooutput
n = STATS_records
plot d."/mip/mip_decide.csv" using 2:(1.0/n) smooth cumulative with lines lw 2 title "lp_solve", \
     "" using 3:(1.0/n) smooth cumulative with lines lw 2 title "exact DP"
unset logscale x

# MIP vs greedy per seed.
set output d."/mip/mip_sim.png"
set title "Mean queueing time per seed (128 GPUs, 400 jobs, interarrival 250 s)"
set xlabel "seed"
set ylabel "seconds"
set style data histograms
set style fill solid 0.6
plot "< grep ',greedy,' ".d."/mip/mip_sim.csv" using 3:xtic(1) title "greedy FIFO", \
     "< grep ',mip,' ".d."/mip/mip_sim.csv" using 3 title "MIP (lp_solve)"
set style data lines

# Dike: search / optimum over random instances (CDF).
set output d."/dike/dike_random.png"
set title "Dike search throughput / exhaustive optimum, 1,000 random instances"
set xlabel "search / optimum"
set ylabel "fraction of instances"
set xrange [0.95:1.001]
stats d."/dike/dike_random.csv" using 7 nooutput
n = STATS_records
plot d."/dike/dike_random.csv" using 7:(1.0/n) smooth cumulative with lines lw 2 title "CDF"
set autoscale x

# FlowCon shares, seed 0.
set output d."/flowcon/flowcon_shares.png"
set title "FlowCon CPU shares, seed 0 (16 cores, 10 jobs)"
set xlabel "time (s)"
set ylabel "cores"
set key outside right
plot for [j=0:9] "< awk -F, '$2==".j."' ".d."/flowcon/flowcon_shares.csv" using 1:3 with steps lw 2 title sprintf("job %d", j)
set key top left

# SpeCon makespan reduction per seed, sorted, at 10 s and 30 s intervals.
set output d."/specon/specon.png"
set title "SpeCon makespan reduction, 100 seeds (4 x 8 cores, 20 jobs)"
set xlabel "seeds, sorted by reduction"
set ylabel "makespan reduction (%)"
set style data lines
set xtics autofreq
set ytics autofreq
plot "< tail -n +2 ".d."/specon/specon.csv | cut -d, -f4 | sort -g" using 0:($1*100) with lines lw 2 title "10 s interval", \
     "< tail -n +2 ".d."/specon/interval30/specon.csv | cut -d, -f4 | sort -g" using 0:($1*100) with lines lw 2 title "30 s interval", \
     10 with lines dt 2 title "target 10 %"
