// Sends a byte range of an open file to a connected socket with the kernel's sendfile(2), on a thread of
// its own, so a download is copied from the page cache to the socket without passing through JavaScript
// buffers. Built by scripts/build-native.mjs; used by platform/sendfile.ts, which falls back to streaming
// when this module is absent.
//
//   start(socketFd, fileFd, offset, length, idleMs, done) -> job
//   cancel(job)
//
// Both descriptors are duplicated before the thread starts: if Node closes the socket while the thread is
// still sending (a destroyed connection, a shutdown), the thread keeps writing to the same connection or
// fails on it, never to an unrelated file that happens to reuse the number. `done(errno, bytesSent)` runs
// on the JavaScript thread; errno 0 means the whole range was handed to the kernel.
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

// sendfile(2) moves at most this much in one call on Linux.
#define MAX_PER_CALL 0x7ffff000
// The thread wakes this often while the socket is full, to notice a cancel.
#define POLL_SLICE_MS 1000

typedef struct {
  int socket_fd;
  int file_fd;
  off_t offset;
  uint64_t remaining;
  uint64_t sent;
  int64_t idle_ms;
  int error;
  atomic_int cancelled;
  // The job is freed when both the thread has reported and JavaScript has dropped its handle.
  atomic_int holders;
  napi_threadsafe_function done;
} job_t;

static void release(job_t *job) {
  if (atomic_fetch_sub(&job->holders, 1) == 1) free(job);
}

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *send_range(void *arg) {
  job_t *job = arg;
  int64_t last_progress = now_ms();
  while (job->remaining > 0) {
    if (atomic_load(&job->cancelled)) {
      job->error = ECANCELED;
      break;
    }
    size_t want = job->remaining > MAX_PER_CALL ? MAX_PER_CALL : (size_t)job->remaining;
    ssize_t n = sendfile(job->socket_fd, job->file_fd, &job->offset, want);
    if (n > 0) {
      job->remaining -= (uint64_t)n;
      job->sent += (uint64_t)n;
      last_progress = now_ms();
      continue;
    }
    if (n == 0) {
      // The file ended before the range did: it was truncated after the answer's length was decided.
      job->error = EIO;
      break;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      job->error = errno;
      break;
    }
    // The socket is non-blocking (Node owns it): wait until the client has read enough to make room.
    if (now_ms() - last_progress >= job->idle_ms) {
      job->error = ETIMEDOUT;
      break;
    }
    struct pollfd wait = {.fd = job->socket_fd, .events = POLLOUT};
    if (poll(&wait, 1, POLL_SLICE_MS) < 0 && errno != EINTR) {
      job->error = errno;
      break;
    }
  }
  close(job->socket_fd);
  close(job->file_fd);
  napi_call_threadsafe_function(job->done, job, napi_tsfn_blocking);
  return NULL;
}

static void report(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  job_t *job = data;
  if (env != NULL) {
    napi_value argv[2], undefined;
    napi_create_int32(env, job->error, &argv[0]);
    napi_create_double(env, (double)job->sent, &argv[1]);
    napi_get_undefined(env, &undefined);
    napi_call_function(env, undefined, callback, 2, argv, NULL);
  }
  napi_release_threadsafe_function(job->done, napi_tsfn_release);
  release(job);
}

static void drop_handle(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  release(data);
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc != 6) return fail(env, "start(socketFd, fileFd, offset, length, idleMs, done) takes six arguments");
  int32_t socket_fd, file_fd;
  int64_t offset, length, idle_ms;
  napi_valuetype callback_type;
  if (napi_get_value_int32(env, argv[0], &socket_fd) != napi_ok || napi_get_value_int32(env, argv[1], &file_fd) != napi_ok ||
      napi_get_value_int64(env, argv[2], &offset) != napi_ok || napi_get_value_int64(env, argv[3], &length) != napi_ok ||
      napi_get_value_int64(env, argv[4], &idle_ms) != napi_ok || napi_typeof(env, argv[5], &callback_type) != napi_ok ||
      callback_type != napi_function || socket_fd < 0 || file_fd < 0 || offset < 0 || length < 0 || idle_ms <= 0)
    return fail(env, "start: invalid arguments");

  job_t *job = calloc(1, sizeof(job_t));
  if (job == NULL) return fail(env, "start: out of memory");
  job->socket_fd = fcntl(socket_fd, F_DUPFD_CLOEXEC, 0);
  job->file_fd = fcntl(file_fd, F_DUPFD_CLOEXEC, 0);
  job->offset = (off_t)offset;
  job->remaining = (uint64_t)length;
  job->idle_ms = idle_ms;
  atomic_init(&job->cancelled, 0);
  atomic_init(&job->holders, 2);
  if (job->socket_fd < 0 || job->file_fd < 0) {
    if (job->socket_fd >= 0) close(job->socket_fd);
    if (job->file_fd >= 0) close(job->file_fd);
    free(job);
    return fail(env, "start: could not duplicate a descriptor");
  }

  napi_value name, handle;
  napi_create_string_utf8(env, "sendfile", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[5], NULL, name, 0, 1, NULL, NULL, NULL, report, &job->done) != napi_ok) {
    close(job->socket_fd);
    close(job->file_fd);
    free(job);
    return fail(env, "start: could not create the completion callback");
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  // The loop needs little stack; many downloads at once should not reserve 8 MB each.
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_t thread;
  int created = pthread_create(&thread, &attr, send_range, job);
  pthread_attr_destroy(&attr);
  if (created != 0) {
    napi_release_threadsafe_function(job->done, napi_tsfn_abort);
    close(job->socket_fd);
    close(job->file_fd);
    free(job);
    return fail(env, "start: could not start a thread");
  }
  napi_create_external(env, job, drop_handle, NULL, &handle);
  return handle;
}

static napi_value cancel(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc != 1 || napi_get_value_external(env, argv[0], &data) != napi_ok || data == NULL)
    return fail(env, "cancel(job) takes the handle start returned");
  atomic_store(&((job_t *)data)->cancelled, 1);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor methods[] = {
      {"start", NULL, start, NULL, NULL, NULL, napi_default, NULL},
      {"cancel", NULL, cancel, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 2, methods);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
