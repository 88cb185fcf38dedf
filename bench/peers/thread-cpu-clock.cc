// Linked into google-check-cpu (scripts/build-peers.mjs): the same driver as google-check,
// built from the same sources, whose clock (std::chrono::steady_clock::now(), which its
// --bench mode times with) reads the calling thread's CPU time instead of the wall clock.
// The bench's rounds (bench/rounds.mjs) time every engine in CPU time: on a shared machine
// the wall clock counts the time other processes hold the cores. This definition, in the
// executable, is the one the driver's calls bind to (libstdc++'s is in the shared library).
#include <chrono>
#include <ctime>

namespace std::chrono {
inline namespace _V2 {
steady_clock::time_point steady_clock::now() noexcept {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return time_point(duration(chrono::seconds(ts.tv_sec) + chrono::nanoseconds(ts.tv_nsec)));
}
}  // namespace _V2
}  // namespace std::chrono
