#!/bin/bash
F=/tmp/lane31-fake; cd $F
run() { # run NAME PHASES [env...]
  local n=$1 ph=$2; shift 2
  export FAKE_DIR=$F/$n; rm -rf $FAKE_DIR; mkdir -p $FAKE_DIR
  PHASES="$ph" FAKE_DIR=$FAKE_DIR ./stat.sh & local sp=$!
  sleep 1.5
  env PATH=$F/bin:$PATH FAKE_STAT=$FAKE_DIR/stat SPARE_VM_WRAP=$F/fake-vm-run SPARE_VM_TIMES=$F/times "$@" bash scripts/check > $FAKE_DIR/check-out.txt 2>&1
  kill $sp; cp build/check/vm-idle $FAKE_DIR/vm-idle
}
run "$@"
