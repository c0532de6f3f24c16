#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../base/names.h"
#include "../build/build.h"
#include "../config/config.h"
#include "agent_internal.h"

enum MHD_Result agent_respond(struct MHD_Connection *c, unsigned status, json_t *body)
{
	char *text;
	struct MHD_Response *r;
	enum MHD_Result ok;

	json_object_set_new(body, "api", json_integer(AGENT_API));
	text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		return MHD_NO;
	r = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
	MHD_add_response_header(r, "Content-Type", "application/json");
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(r, "Retry-After", "1");
	/* A refusal may leave a body unread: the connection ends with it. */
	if (status == MHD_HTTP_UNAUTHORIZED || status == MHD_HTTP_CONTENT_TOO_LARGE)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

enum MHD_Result agent_fail(struct MHD_Connection *c, unsigned status, const char *msg)
{
	return agent_respond(c, status, json_pack("{s:s}", "error", msg));
}

static enum MHD_Result body_too_big(struct MHD_Connection *c)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "request body over %d bytes", AGENT_MAX_BODY);
	return agent_fail(c, MHD_HTTP_CONTENT_TOO_LARGE, msg);
}

struct conn *agent_conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

static void conn_authed(struct agent *a, struct conn *k)
{
	if (!k)
		return;
	pthread_mutex_lock(&a->conns_lock);
	k->authed = 1;
	pthread_mutex_unlock(&a->conns_lock);
}

static void conn_serving(struct agent *a, struct conn *k, int serving)
{
	if (!k)
		return;
	pthread_mutex_lock(&a->conns_lock);
	k->serving = serving;
	k->since = tk_now_s();
	pthread_mutex_unlock(&a->conns_lock);
}

/* Cuts the oldest connection without the token (of addr's, or of all when
 * addr is 0) other than the newest; under conns_lock. Returns whether it
 * found one. */
static int evict_oldest(struct agent *a, const struct conn *newest, unsigned long addr)
{
	struct conn *oldest = NULL;

	for (struct conn *k = a->conns; k; k = k->next)
		if (k != newest && !k->authed && !k->cut && k->fd >= 0 && (!addr || k->addr == addr) &&
		    (!oldest || k->opened < oldest->opened))
			oldest = k;
	if (!oldest)
		return 0;
	shutdown(oldest->fd, SHUT_RDWR);
	oldest->cut = 1;
	a->evicted++;
	return 1;
}

/* Keeps the connections that have not shown the token within their caps,
 * cutting the oldest: the newest may be the orchestrator's, and it shows
 * its token within milliseconds. Under conns_lock. */
static void within_caps(struct agent *a, const struct conn *newest)
{
	for (;;) {
		size_t all = 0, same = 0;

		for (struct conn *k = a->conns; k; k = k->next)
			if (!k->authed && !k->cut) {
				all++;
				same += k->addr == newest->addr;
			}
		if (same > AGENT_MAX_PER_CLIENT ? !evict_oldest(a, newest, newest->addr) :
		    all <= AGENT_MAX_UNAUTHENTICATED || !evict_oldest(a, newest, 0))
			return;
	}
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct agent *a = cls;
	struct conn *k = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *from = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

		if (!(k = calloc(1, sizeof(*k))))
			return;
		/* Close-on-exec: the kernels this agent starts must not hold it. */
		k->fd = i ? fcntl(i->connect_fd, F_DUPFD_CLOEXEC, 0) : -1;
		k->since = k->opened = tk_now_s();
		if (from && from->client_addr && from->client_addr->sa_family == AF_INET)
			k->addr = ((const struct sockaddr_in *)(const void *)from->client_addr)->sin_addr.s_addr;
		pthread_mutex_lock(&a->conns_lock);
		k->next = a->conns;
		if (a->conns)
			a->conns->prev = k;
		a->conns = k;
		within_caps(a, k);
		pthread_mutex_unlock(&a->conns_lock);
		*socket_context = k;
	} else if (k) {
		pthread_mutex_lock(&a->conns_lock);
		if (k->prev)
			k->prev->next = k->next;
		else
			a->conns = k->next;
		if (k->next)
			k->next->prev = k->prev;
		pthread_mutex_unlock(&a->conns_lock);
		if (k->fd >= 0)
			close(k->fd);
		free(k);
		*socket_context = NULL;
	}
}

/* Cuts every connection whose request has taken longer than the deadline
 * to arrive, however slowly it trickles in. */
static void cut_late(struct agent *a)
{
	double now = tk_now_s();

	pthread_mutex_lock(&a->conns_lock);
	for (struct conn *k = a->conns; k; k = k->next)
		if (!k->serving && !k->cut && k->fd >= 0 && now - k->since > AGENT_REQUEST_DEADLINE_S) {
			shutdown(k->fd, SHUT_RDWR);
			k->cut = 1;
			a->cut++;
		}
	pthread_mutex_unlock(&a->conns_lock);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *data, size_t *data_size, void **con_cls)
{
	struct agent *a = cls;
	struct request *rq = *con_cls;

	(void)version;
	if (!rq) {
		const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
		const char *clen = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");

		if (!(rq = calloc(1, sizeof(*rq))))
			return MHD_NO;
		*con_cls = rq;
		/* Answered as soon as the headers are read, before any 100
		 * Continue: a refused body is never waited for, nor buffered. */
		if (!auth || strncmp(auth, "Bearer ", 7) != 0 || !token_equal(auth + 7, a->token))
			return agent_fail(c, MHD_HTTP_UNAUTHORIZED, "missing or wrong token (send 'Authorization: Bearer TOKEN' "
				    "with the token of the agent's --token-file)");
		if (clen && strtoull(clen, NULL, 10) > AGENT_MAX_BODY)
			return body_too_big(c);
		conn_authed(a, agent_conn_of(c));
		return MHD_YES;
	}
	if (*data_size) {
		if (!rq->too_big) {
			char *nb;

			if (rq->len + *data_size > AGENT_MAX_BODY || !(nb = realloc(rq->body, rq->len + *data_size + 1))) {
				rq->too_big = 1;
			} else {
				memcpy(nb + rq->len, data, *data_size);
				rq->len += *data_size;
				nb[rq->len] = '\0';
				rq->body = nb;
			}
		}
		*data_size = 0;
		return MHD_YES;
	}
	if (rq->too_big)
		return body_too_big(c);
	conn_serving(a, agent_conn_of(c), 1);
	if (!strcmp(url, "/v1/facts")) {
		if (strcmp(method, "GET") != 0)
			return agent_fail(c, MHD_HTTP_METHOD_NOT_ALLOWED, "use GET /v1/facts");
		return agent_respond(c, MHD_HTTP_OK, agent_facts_json(a));
	}
	if (!strcmp(url, "/v1/run")) {
		if (strcmp(method, "POST") != 0)
			return agent_fail(c, MHD_HTTP_METHOD_NOT_ALLOWED, "use POST /v1/run with a JSON run spec");
		return agent_run_trial(a, c, rq);
	}
	return agent_fail(c, MHD_HTTP_NOT_FOUND, "unknown path (the API is GET /v1/facts and POST /v1/run)");
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode code)
{
	struct request *rq = *con_cls;

	(void)code;
	/* The next request on this connection has the deadline from now. */
	conn_serving(cls, agent_conn_of(c), 0);
	if (rq) {
		free(rq->body);
		free(rq);
		*con_cls = NULL;
	}
}

static int parse_listen(const char *listen, struct sockaddr_in *sa, struct tune_error *err)
{
	char host[64];
	const char *colon = strrchr(listen, ':');
	char *end = NULL;
	long port;

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	if (!colon || (size_t)(colon - listen) >= sizeof(host))
		return tune_fail(err, TUNE_ERR_USAGE, "agent: option '--listen': '%s' is not ADDR:PORT (e.g. "
				 "127.0.0.1:7781)", listen);
	memcpy(host, listen, (size_t)(colon - listen));
	host[colon - listen] = '\0';
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || port < 1 || port > 65535)
		return tune_fail(err, TUNE_ERR_USAGE, "agent: option '--listen': port '%s' is not in 1..65535",
				 colon + 1);
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1)
		return tune_fail(err, TUNE_ERR_USAGE, "agent: option '--listen': '%s' is not an IPv4 address (e.g. "
				 "127.0.0.1 or 0.0.0.0)", host);
	sa->sin_port = htons((uint16_t)port);
	return 0;
}

static char *read_file(const char *path, struct tune_error *err)
{
	char *buf = paths_read_file(path, (1 << 20) - 1);

	if (!buf && errno != EFBIG && errno != ENOMEM) {
		tune_fail(err, TUNE_ERR_CONFIG, "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (!buf || !*buf) {
		free(buf);
		tune_fail(err, TUNE_ERR_CONFIG, "cannot read '%s': empty or over 1 MiB", path);
		return NULL;
	}
	return buf;
}

/* Several agents on one machine (containers, tests) tell themselves apart. */
static int set_name(struct host_facts *f, const char *name, struct tune_error *err)
{
	char why[200];

	if (names_check(name, why, sizeof(why)) != 0)
		return tune_fail(err, TUNE_ERR_USAGE, "agent: option '--name': %s (a name is %s)", why, NAMES_RULE);
	snprintf(f->hostname, sizeof(f->hostname), "%s", name);
	return 0;
}

int agent_serve(const struct agent_options *o, struct tune_error *err)
{
	struct agent *a = calloc(1, sizeof(*a));
	struct sockaddr_in sa;
	struct MHD_Daemon *d = NULL;
	char *cert = NULL, *key = NULL;
	const char *listen = o->listen ? o->listen : "127.0.0.1:7781";
	int rc;

	if (!a)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	pthread_mutex_init(&a->trial, NULL);
	pthread_mutex_init(&a->conns_lock, NULL);
	a->stop = o->stop;
	a->max_timeout_s = o->max_timeout_s > 0 ? o->max_timeout_s : AGENT_DEFAULT_MAX_TIMEOUT_S;
	if ((rc = parse_listen(listen, &sa, err)) != 0 ||
	    (rc = token_read(o->token_file, a->token, sizeof(a->token), err)) != 0 ||
	    (rc = hostinfo_read(&a->facts, err)) != 0 ||
	    (o->name && (rc = set_name(&a->facts, o->name, err)) != 0) ||
	    (rc = platform_load(o->platform ? o->platform : "local", &a->platform, err)) != 0 ||
	    (rc = platform_resolve(&a->platform, &a->facts, err)) != 0 ||
	    (rc = build_compiler_version(a->platform.compiler, a->compiler_version, sizeof(a->compiler_version),
					 err)) != 0 ||
	    (rc = build_fingerprint(&a->platform, &a->facts, a->fingerprint, err)) != 0)
		goto out;
	conf_strs_join(&a->platform.cflags, " ", a->cflags, sizeof(a->cflags));
	if ((rc = agent_list_kernels(a, err)) != 0)
		goto out;
	if (!!o->tls_cert != !!o->tls_key) {
		rc = tune_fail(err, TUNE_ERR_USAGE, "agent: give both --tls-cert and --tls-key, or neither");
		goto out;
	}
	if (o->tls_cert && (!(cert = read_file(o->tls_cert, err)) || !(key = read_file(o->tls_key, err)))) {
		rc = TUNE_ERR_CONFIG;
		goto out;
	}
	if (sa.sin_addr.s_addr != htonl(INADDR_LOOPBACK) && !cert)
		fprintf(stderr, "tune agent: warning: listening on %s without TLS: the token and the results cross the "
			"network in clear (give --tls-cert and --tls-key)\n", listen);
	/* An idle limit, a total deadline per request (cut_late), caps on the
	 * connections without the token (within_caps) and on all of them:
	 * slow or many clients cannot hold it. */
	if (cert)
		d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_TLS, 0,
				     NULL, NULL, handle, a, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)AGENT_REQUEST_DEADLINE_S,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned)AGENT_MAX_CONNECTIONS,
				     MHD_OPTION_NOTIFY_COMPLETED, completed, a, MHD_OPTION_NOTIFY_CONNECTION, on_connection, a,
				     MHD_OPTION_HTTPS_MEM_CERT, cert, MHD_OPTION_HTTPS_MEM_KEY, key, MHD_OPTION_END);
	else
		d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL,
				     handle, a, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)AGENT_REQUEST_DEADLINE_S,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned)AGENT_MAX_CONNECTIONS,
				     MHD_OPTION_NOTIFY_COMPLETED, completed, a, MHD_OPTION_NOTIFY_CONNECTION, on_connection, a,
				     MHD_OPTION_END);
	if (!d) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "agent: cannot listen on %s (port in use, or the address is not "
			       "this host's%s)", listen, cert ? ", or the TLS certificate and key do not match" : "");
		goto out;
	}
	fprintf(stderr, "tune agent: listening on %s://%s (platform %s, host %s, fingerprint %s)\n",
		cert ? "https" : "http", listen, a->platform.name, a->facts.hostname, a->fingerprint);
	while (!o->stop || !*o->stop) {
		struct timespec nap = { 0, 100000000 };

		nanosleep(&nap, NULL);
		cut_late(a);
	}
	fprintf(stderr, "tune agent: stopping (%lu connections cut at the %d s request deadline, %lu without the "
		"token cut for newer ones)\n", a->cut, AGENT_REQUEST_DEADLINE_S, a->evicted);
	MHD_stop_daemon(d);
	rc = 0;
out:
	free(cert);
	free(key);
	platform_free(&a->platform);
	json_decref(a->kernels);
	pthread_mutex_destroy(&a->trial);
	pthread_mutex_destroy(&a->conns_lock);
	free(a);
	return rc;
}
