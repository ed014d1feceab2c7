#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <time.h>
_Alignas(128) atomic_long a; _Alignas(128) atomic_long b;
#define N 1000000
void* th(void*x){ for(long i=1;i<=N;i++){ while(atomic_load_explicit(&a,memory_order_acquire)!=i); atomic_store_explicit(&b,i,memory_order_release);} return 0;}
int main(){ pthread_t t; pthread_create(&t,0,th,0); struct timespec s,e; clock_gettime(CLOCK_MONOTONIC,&s);
 for(long i=1;i<=N;i++){ atomic_store_explicit(&a,i,memory_order_release); while(atomic_load_explicit(&b,memory_order_acquire)!=i); }
 clock_gettime(CLOCK_MONOTONIC,&e); double ns=(e.tv_sec-s.tv_sec)*1e9+(e.tv_nsec-s.tv_nsec); printf("round trip %.1f ns\n", ns/N); }
