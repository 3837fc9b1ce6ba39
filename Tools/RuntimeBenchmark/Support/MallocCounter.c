// Counts heap allocations for the runtime benchmark.
//
// An executable that defines `malloc` wins symbol resolution over libc for every shared library of
// the process (the dynamic linker searches the executable first), so these definitions see the
// Swift runtime's allocations too. Each one counts, then forwards to glibc's own entry point.
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#include "RuntimeBenchmarkSupport.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic unsigned long allocations = 0;

static inline void count_one(void) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

unsigned long malloc_counter_total(void) {
  return atomic_load_explicit(&allocations, memory_order_relaxed);
}

void benchmark_sink(const void *pointer) {
  (void)pointer;
}

void *malloc(size_t size) {
  count_one();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_one();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  count_one();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  // The contract of posix_memalign: a power of two that is a multiple of sizeof(void *).
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
    return EINVAL;
  }
  count_one();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) {
    return ENOMEM;
  }
  *result = pointer;
  return 0;
}
