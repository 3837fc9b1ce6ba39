#ifndef RUNTIME_BENCHMARK_SUPPORT_H
#define RUNTIME_BENCHMARK_SUPPORT_H

/// The number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign) made by the whole process since it started.
///
/// The executable that links this target defines those functions itself and forwards them to
/// glibc's implementations, so every allocation of the Swift runtime and of the program is counted.
unsigned long malloc_counter_total(void);

/// Does nothing with `pointer`, out of the optimizer's sight: a benchmark loop that passes its
/// result here cannot be folded away.
void benchmark_sink(const void *pointer);

/// Serves the main dispatch queue on the calling (main) thread, forever: the benchmark's
/// `dispatchMain()`, which valgrind can run.
void benchmark_serve_main_queue(void);

#endif
