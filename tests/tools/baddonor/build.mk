PROGS += spare-baddonor
spare-baddonor_SRCS   := tests/tools/baddonor/baddonor.c
spare-baddonor_LDLIBS := -lrdmacm -libverbs
