/* A hostile client of `tune agent`, for the tests: it speaks raw HTTP over
 * TCP, so that it can send what no well-behaved client would.
 *
 *   agent_hostile catalogue PORT TOKEN_FILE
 *     sends a catalogue of hostile requests (without the token, with wrong
 *     tokens, strange methods and paths, run specs with unknown fields, out
 *     of range or over this host's limits, malformed or oversized bodies) and
 *     prints one line: tried, refused, served without the token, and whether
 *     the agent still answers. Exit 0 when no request was served without the
 *     token, no hostile run spec was run, and the agent is alive.
 *   agent_hostile early PORT
 *     an unauthenticated POST with Expect: 100-continue and a 60000-byte body
 *     not yet sent: prints the status and whether it came before the body
 *     (exit 0 when it is a 401, with no 100 Continue, and the connection is
 *     closed by the agent).
 *   agent_hostile slow PORT N SECONDS [ADDR]
 *     holds N connections for SECONDS, from ADDR or else from 127.0.0.2 on
 *     (at least 5 addresses, at most 8 connections each), each sending a
 *     request without the token one header byte per second, reconnecting
 *     whenever the agent cuts one; prints how many were cut and how long the
 *     longest lived.
 *   agent_hostile serve PORT FILE [COUNT_FILE]
 *     plays an agent (or a proxy in front of one) that answers every request
 *     with 200 and the JSON of FILE, for the orchestrator's side; with
 *     COUNT_FILE it answers only GETs, reads each POST and hangs up, and
 *     writes how many POSTs it had to COUNT_FILE.
 *   agent_hostile busy PORT FILE SECONDS
 *     as serve, but for its first SECONDS hangs up on every request, as an
 *     agent does whose connections slow strangers hold. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int connect_from(int port, const char *src)
{
	struct sockaddr_in sa = { 0 }, from = { 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	if (src) {
		from.sin_family = AF_INET;
		inet_pton(AF_INET, src, &from.sin_addr);
		if (bind(fd, (struct sockaddr *)&from, sizeof(from)) != 0) {
			close(fd);
			return -1;
		}
	}
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Reads what comes within timeout_s, until the peer closes; returns bytes. */
static size_t read_answer(int fd, char *buf, size_t len, double timeout_s, int *closed)
{
	size_t got = 0;
	double end = now_s() + timeout_s;

	*closed = 0;
	while (got + 1 < len) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = end - now_s();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			break;
		n = recv(fd, buf + got, len - 1 - got, 0);
		if (n <= 0) {
			*closed = 1;
			break;
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	return got;
}

static int status_of(const char *answer)
{
	int code = 0;

	if (sscanf(answer, "HTTP/1.%*d %d", &code) != 1)
		return 0;
	return code;
}

/* One request, whole; the status of the answer (0: none). */
static int exchange(int port, const char *request, size_t len, char *answer, size_t alen)
{
	int fd = connect_from(port, NULL), closed;
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < len) {
		ssize_t n = send(fd, request + off, len - off, MSG_NOSIGNAL);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	read_answer(fd, answer, alen, 15.0, &closed);
	close(fd);
	return status_of(answer);
}

static char *request(const char *method, const char *path, const char *auth, const char *extra, const char *body,
		     size_t *len)
{
	size_t blen = body ? strlen(body) : 0;
	size_t cap = strlen(path) + (auth ? strlen(auth) : 0) + (extra ? strlen(extra) : 0) + blen + 512;
	char *r = malloc(cap);
	int n = snprintf(r, cap, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s%sContent-Type: application/json\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s", method, path, auth ? "Authorization: " : "", auth ? auth : "",
			 auth ? "\r\n" : "", extra ? extra : "", blen, body ? body : "");

	*len = (size_t)n;
	return r;
}

static int catalogue(int port, const char *token_file, const char *chase_hash)
{
	static const char *const methods[] = { "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", NULL };
	static const char *const paths[] = { "/v1/facts", "/v1/run", "/", "/../../etc/passwd", "/v1/run?cmd=id",
					     "/v2/run", NULL };
	char token[600] = "", answer[65536], wrong[700], auths[8][700], good[1024];
	/* A run spec the agent takes (chase's, with the agent's hash of it); the
	 * hostile ones below are it with a field more or one changed. */
	snprintf(good, sizeof(good), "{\"api\":1,\"kernel\":\"chase\",\"kernel_hash\":\"%.16s\",\"runs\":1,\"warmup\":0,"
		 "\"seed\":1,\"timeout_s\":30,\"list\":[4],\"variant\":\"interleaved-prefetch\",\"params\":{\"hint\":"
		 "\"pldl1keep\",\"size_mb\":1,\"depth\":0,\"queries\":1000,\"hugepages\":\"off\"}", chase_hash);
	/* Run specs an agent must refuse, with the token: each after good's fields. */
	static const char *const bad_tails[] = {
		",\"compiler\":\"/bin/sh\"}", ",\"cflags\":[\"-fplugin=/tmp/x.so\"]}", ",\"binary\":\"/bin/sh\"}",
		",\"argv\":[\"sh\",\"-c\",\"id\"]}", ",\"env\":{\"LD_PRELOAD\":\"/tmp/x.so\"}}", ",\"size_mb\":1048576}",
		",\"timeout_s\":86400}", ",\"kernel\":\"../../bin/sh\"}", "}{", ",\"points\":[0]}", ",\"points\":[1e9]}",
		",\"runs\":-1}", ",\"hint\":\"$(id)\"}", ",\"depth\":\"1; id\"}", ",\"api\":2}", ",\"points\":[]}",
		",\"variant\":null}", ",\"queries\":99999999999999999999}", ",\"seed\":1.5}", ",\"hugepages\":\"yes\"}",
		",\"list\":[0]}", ",\"list\":[1e9]}", ",\"list\":[]}", ",\"params\":{\"hint\":\"$(id)\"}}",
		",\"params\":{\"depth\":\"1; id\"}}", ",\"params\":{\"size_mb\":1048576}}", ",\"kernel_hash\":\"x\"}",
		",\"nested\":{\"a\":{\"b\":{\"c\":[[[[[[[[[[]]]]]]]]]]}}}}", ",\"x\":\"\\u0000\"}",
	};
	int tried = 0, refused = 0, served = 0, ran = 0, alive;
	FILE *f = fopen(token_file, "r");
	size_t len;
	char *r;

	if (!f || !fgets(token, sizeof(token), f)) {
		fprintf(stderr, "agent_hostile: cannot read %s\n", token_file);
		return 2;
	}
	fclose(f);
	token[strcspn(token, "\r\n")] = '\0';
	snprintf(wrong, sizeof(wrong), "%s", token);
	wrong[0] = wrong[0] == 'A' ? 'B' : 'A';
	snprintf(auths[0], sizeof(auths[0]), "Bearer ");
	snprintf(auths[1], sizeof(auths[1]), "Bearer %s", wrong);
	snprintf(auths[2], sizeof(auths[2]), "Bearer %.8s", token);
	snprintf(auths[3], sizeof(auths[3]), "Bearer %sx", token);
	snprintf(auths[4], sizeof(auths[4]), "Basic %s", token);
	snprintf(auths[5], sizeof(auths[5]), "bearer %s", token);
	snprintf(auths[6], sizeof(auths[6]), "Bearer  %s", token);
	/* Without the token (no header, and seven wrong ones): never served. */
	for (int m = 0; methods[m]; m++)
		for (int p = 0; paths[p]; p++)
			for (int a = -1; a < 7; a++) {
				int st;

				r = request(methods[m], paths[p], a < 0 ? NULL : auths[a], NULL,
					    strcmp(methods[m], "POST") ? NULL : good, &len);
				st = exchange(port, r, len, answer, sizeof(answer));
				free(r);
				tried++;
				if (st >= 400)
					refused++;
				if (st >= 200 && st < 300) {
					served++;
					fprintf(stderr, "agent_hostile: served without the token: %s %s (auth %d): %d\n",
						methods[m], paths[p], a, st);
				}
			}
	/* A body over the limit, declared and not: refused, with or without the token. */
	{
		size_t big = 70000;
		char *body = malloc(big + 1), auth[700];

		memset(body, ' ', big);
		body[big] = '\0';
		snprintf(auth, sizeof(auth), "Bearer %s", token);
		for (int a = 0; a < 2; a++) {
			int st;

			r = request("POST", "/v1/run", a ? auth : NULL, NULL, body, &len);
			st = exchange(port, r, len, answer, sizeof(answer));
			free(r);
			tried++;
			refused += st >= 400;
			served += st >= 200 && st < 300;
		}
		free(body);
	}
	/* With the token: hostile run specs are refused, never run. */
	for (size_t b = 0; b < sizeof(bad_tails) / sizeof(bad_tails[0]); b++) {
		char body[4096], auth[700];
		int st;

		snprintf(auth, sizeof(auth), "Bearer %s", token);
		snprintf(body, sizeof(body), "%s%s", good, bad_tails[b]);
		r = request("POST", "/v1/run", auth, NULL, body, &len);
		st = exchange(port, r, len, answer, sizeof(answer));
		free(r);
		tried++;
		if (st >= 400)
			refused++;
		else {
			ran++;
			fprintf(stderr, "agent_hostile: a hostile run spec got %d: %s\n", st, body);
		}
	}
	/* Still there, and still answering the token. */
	{
		char auth[700];

		snprintf(auth, sizeof(auth), "Bearer %s", token);
		r = request("GET", "/v1/facts", auth, NULL, NULL, &len);
		alive = exchange(port, r, len, answer, sizeof(answer)) == 200;
		free(r);
	}
	printf("hostile: %d requests tried, %d refused, %d served without the token, %d hostile specs run, agent %s\n",
	       tried, refused, served, ran, alive ? "alive" : "DOWN");
	return served == 0 && ran == 0 && alive && refused == tried ? 0 : 1;
}

static int early(int port)
{
	const char *head = "POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
			   "Content-Length: 60000\r\nExpect: 100-continue\r\n\r\n";
	char answer[4096];
	int fd = connect_from(port, NULL), closed;
	double t0 = now_s();

	if (fd < 0 || send(fd, head, strlen(head), MSG_NOSIGNAL) <= 0)
		return 2;
	read_answer(fd, answer, sizeof(answer), 5.0, &closed);
	close(fd);
	printf("early: status %d after %.0f ms with no body sent, 100 Continue %s, connection %s\n", status_of(answer),
	       (now_s() - t0) * 1000, strstr(answer, "100 Continue") ? "sent" : "not sent",
	       closed ? "closed by the agent" : "left open");
	return status_of(answer) == 401 && !strstr(answer, "100 Continue") && closed ? 0 : 1;
}

static int slow(int port, int n, double seconds, const char *addr)
{
	int addrs = n / 8 + (n % 8 != 0) > 5 ? n / 8 + (n % 8 != 0) : 5;
	static const char req[] = "POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nX-Pad: "
				  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	int *fd = calloc((size_t)n, sizeof(int));
	size_t *sent = calloc((size_t)n, sizeof(size_t));
	double *since = calloc((size_t)n, sizeof(double)), end = now_s() + seconds, longest = 0;
	int cuts = 0, refused = 0;
	char src[32];

	for (int i = 0; i < n; i++)
		fd[i] = -1;
	while (now_s() < end) {
		for (int i = 0; i < n; i++) {
			if (fd[i] < 0) {
				if (addr)
					snprintf(src, sizeof(src), "%s", addr);
				else
					snprintf(src, sizeof(src), "127.0.0.%d", 2 + i % addrs);
				fd[i] = connect_from(port, src);
				sent[i] = 0;
				since[i] = now_s();
				if (fd[i] < 0)
					refused++;
				continue;
			}
			/* One byte a second, never the end of the headers. */
			if (send(fd[i], req + sent[i] % (sizeof(req) - 1), 1, MSG_NOSIGNAL | MSG_DONTWAIT) <= 0 ||
			    recv(fd[i], src, sizeof(src), MSG_DONTWAIT) == 0) {
				if (now_s() - since[i] > longest)
					longest = now_s() - since[i];
				close(fd[i]);
				fd[i] = -1;
				cuts++;
				continue;
			}
			sent[i]++;
		}
		sleep(1);
	}
	for (int i = 0; i < n; i++)
		if (fd[i] >= 0) {
			if (now_s() - since[i] > longest)
				longest = now_s() - since[i];
			close(fd[i]);
		}
	printf("slow: %d connections held for %.0f s: %d cut by the agent, %d connects refused, longest lived %.0f s\n",
	       n, seconds, cuts, refused, longest);
	free(fd);
	free(sent);
	free(since);
	return 0;
}

static int serve(int port, const char *file, const char *count_file, double busy_s)
{
	double busy_until = now_s() + busy_s;
	int posts = 0;
	struct sockaddr_in sa = { 0 };
	int one = 1, ls = socket(AF_INET, SOCK_STREAM, 0);
	char body[65536], head[256], buf[65536];
	FILE *f = fopen(file, "r");
	size_t blen = f ? fread(body, 1, sizeof(body) - 1, f) : 0;

	if (f)
		fclose(f);
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!f || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(ls, 16) != 0) {
		fprintf(stderr, "agent_hostile: cannot serve on %d: %s\n", port, strerror(errno));
		return 2;
	}
	for (;;) {
		int c = accept(ls, NULL, NULL), closed;
		int n;

		if (c < 0)
			continue;
		read_answer(c, buf, sizeof(buf), 0.3, &closed);
		if (now_s() < busy_until) {
			close(c);
			continue;
		}
		if (count_file && !strncmp(buf, "POST ", 5)) {
			FILE *cf = fopen(count_file, "w");

			posts++;
			if (cf) {
				fprintf(cf, "%d\n", posts);
				fclose(cf);
			}
			close(c);
			continue;
		}
		n = snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu"
			     "\r\nConnection: close\r\n\r\n", blen);
		send(c, head, (size_t)n, MSG_NOSIGNAL);
		send(c, body, blen, MSG_NOSIGNAL);
		close(c);
	}
}

static int port_arg(const char *s)
{
	char *end = NULL;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 1 || v > 65535) {
		fprintf(stderr, "agent_hostile: '%s' is not a port\n", s);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "serve"))
		return serve(port_arg(argv[2]), argv[3], argc == 5 ? argv[4] : NULL, 0);
	if (argc == 5 && !strcmp(argv[1], "busy"))
		return serve(port_arg(argv[2]), argv[3], NULL, strtod(argv[4], NULL));
	if (argc == 5 && !strcmp(argv[1], "catalogue"))
		return catalogue(port_arg(argv[2]), argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "early"))
		return early(port_arg(argv[2]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "slow"))
		return slow(port_arg(argv[2]), (int)strtol(argv[3], NULL, 10), strtod(argv[4], NULL),
			    argc == 6 ? argv[5] : NULL);
	fprintf(stderr, "usage: agent_hostile catalogue PORT TOKEN_FILE | early PORT | slow PORT N SECONDS [ADDR] | busy PORT FILE SECONDS | serve PORT "
		"FILE [COUNT_FILE]\n");
	return 2;
}
