/*
 * pace-floor.c: what this host charges for keeping an even fixed-rate schedule, with no I/O at all.
 *
 * It sleeps to each due time of RATE requests a second for SECONDS (clock_nanosleep, absolute,
 * CLOCK_MONOTONIC, timer slack 1 ns: each due time to the nanosecond, as Loadlab's pacer asks with
 * --pace-slack 0), "sends" nothing, and records how late it woke for each due time. Everything due by
 * a wake-up counts as woken then, as Loadlab's pacer sends every request due by its pass. So its CPU
 * and its lateness are the floor that any pacer that sleeps between requests pays on this host, in
 * the same units as `loadlab load -R --json`: CPU-s per million due times, lateness in µs.
 *
 * Usage: pace-floor RATE SECONDS     (RATE 1..10,000,000 per second, SECONDS 1..3,600)
 * Prints one line of key=value pairs: rate, seconds, due (due times), sleeps, cpu_s (user+sys of
 * this process, getrusage), user_s, sys_s, late_p50_us, late_p99_us, late_p999_us, late_max_us,
 * over_1ms (due times woken more than 1 ms late). Lateness is kept in a histogram of 1 µs buckets up
 * to 100 ms (the maximum is exact), so memory stays 800 KB whatever RATE and SECONDS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

#define BUCKETS 100000 /* 1 µs each: 0 to 100 ms; later wake-ups land in the last one */

static uint64_t hist[BUCKETS];

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* A whole number in [lo, hi], or exit with a line that says what to pass. */
static long parse(const char *what, const char *s, long lo, long hi) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "pace-floor: %s must be a whole number from %ld to %ld, got '%s'\n", what, lo, hi, s);
    exit(2);
  }
  return v;
}

/* The value (µs) below which a fraction q of the due times fall. */
static long quantile(uint64_t total, double q) {
  uint64_t want = (uint64_t)(q * (double)total), seen = 0;
  for (long i = 0; i < BUCKETS; i++) {
    seen += hist[i];
    if (seen > want) return i;
  }
  return BUCKETS - 1;
}

/* Due time i: start + i / rate s, in ns, computed (never accumulated) and without overflow. */
static int64_t due_of(int64_t start, int64_t i, long rate) {
  return start + (i / rate) * 1000000000LL + (i % rate) * 1000000000LL / rate;
}

static double seconds_of(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: pace-floor RATE SECONDS   (due times a second, 1 to 10000000; 1 to 3600 s)\n");
    return 2;
  }
  long rate = parse("RATE", argv[1], 1, 10000000);
  long secs = parse("SECONDS", argv[2], 1, 3600);
  if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) != 0) {
    perror("pace-floor: prctl(PR_SET_TIMERSLACK)");
    return 1;
  }
  const int64_t due_count = (int64_t)rate * secs;
  const int64_t start = now_ns() + 1000000; /* the first due time 1 ms from now */
  int64_t i = 0, sleeps = 0, over = 0, max_late = 0;
  while (i < due_count) {
    int64_t t = now_ns();
    for (int64_t due; i < due_count && (due = due_of(start, i, rate)) <= t; i++) {
      int64_t late = t - due;
      if (late > max_late) max_late = late;
      if (late > 1000000) over++;
      hist[late / 1000 < BUCKETS ? late / 1000 : BUCKETS - 1]++;
    }
    if (i < due_count) {
      int64_t due = due_of(start, i, rate);
      struct timespec ts = {(time_t)(due / 1000000000LL), (long)(due % 1000000000LL)};
      int rc;
      while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR) {
      }
      if (rc != 0) {
        fprintf(stderr, "pace-floor: clock_nanosleep failed (error %d)\n", rc);
        return 1;
      }
      sleeps++;
    }
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double user = seconds_of(ru.ru_utime), sys = seconds_of(ru.ru_stime);
  printf("rate=%ld seconds=%ld due=%" PRId64 " sleeps=%" PRId64 " cpu_s=%.3f user_s=%.3f sys_s=%.3f"
         " late_p50_us=%ld late_p99_us=%ld late_p999_us=%ld late_max_us=%.1f over_1ms=%" PRId64 "\n",
         rate, secs, due_count, sleeps, user + sys, user, sys, quantile(due_count, 0.5),
         quantile(due_count, 0.99), quantile(due_count, 0.999), (double)max_late / 1000.0, over);
  return 0;
}
