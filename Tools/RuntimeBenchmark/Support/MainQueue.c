// Serves the main dispatch queue on the main thread for the runtime benchmark.
//
// `dispatchMain()` parks the main thread in `sigsuspend`, which valgrind 3.19 cannot run, and
// Foundation's run loop adds thousands of instructions of its own to every main-queue job. This
// loop does what both do underneath: wait on the main queue's wake-up handle, then drain the
// queue. The two entry points are libdispatch's, exported for the run loops built on it.
#include <poll.h>
#include <stdint.h>
#include <unistd.h>

#include "RuntimeBenchmarkSupport.h"

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

void benchmark_serve_main_queue(void) {
  int handle = _dispatch_get_main_queue_handle_4CF();
  for (;;) {
    struct pollfd wakeUp = {handle, POLLIN, 0};
    poll(&wakeUp, 1, -1);
    uint64_t count;
    (void)read(handle, &count, sizeof count);
    _dispatch_main_queue_callback_4CF(0);
  }
}
