PROGS += spare-baddonor
spare-baddonor_SRCS   := userspace/baddonor/baddonor.c
spare-baddonor_LDLIBS := -lrdmacm -libverbs
