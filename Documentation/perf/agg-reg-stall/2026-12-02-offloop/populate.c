#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <stdint.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
int main(int argc,char**argv){size_t len=(size_t)atoi(argv[1])<<20;int huge=atoi(argv[2]);int mode=atoi(argv[3]);
for(int rep=0;rep<3;rep++){
double t0=now();uint8_t*p;
if(mode==0){p=malloc(len);memset(p,0,len);} else {
p=mmap(NULL,len+(2<<20),PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
p=(uint8_t*)(((uintptr_t)p+(2<<20)-1)&~(uintptr_t)((2<<20)-1));
if(huge)madvise(p,len,MADV_HUGEPAGE);
for(size_t o=0;o<len;o+=32<<20){size_t n=len-o>(32u<<20)?(32u<<20):len-o; if(madvise(p+o,n,MADV_POPULATE_WRITE))perror("pop");}}
double t1=now();
if(mode==0)free(p);else munmap(p,len);
double t2=now();
printf("len %zu MiB huge %d mode %d: alloc %.1f ms free %.1f ms\n",len>>20,huge,mode,(t1-t0)*1e3,(t2-t1)*1e3);}
return 0;}
