/* A random Croupier bot in C (the standard library only), for the stdio bridge.
 *
 *   cc -O2 -o random-c random_bot.c && croupier check-bot "stdio:./random-c"
 *
 * Each stdin line is one arbiter message (a PlayResponse in protobuf's canonical JSON). For a
 * decision, the bot collects decision.legalActions[].id with a small JSON scanner (an entry with
 * "amounts" stands for a run of bets or raises: the ids id, id + step, ..., id + highest -
 * lowest) and answers with one of them on its own line. Seeded from CROUPIER_SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* p at a '"': the character after the closing quote (NULL if unterminated). */
static const char *skip_string(const char *p) {
  for (p++; *p; p++) {
    if (*p == '\\' && p[1]) p++;
    else if (*p == '"') return p + 1;
  }
  return NULL;
}

/* The character after the JSON value at p (NULL if malformed). */
static const char *skip_value(const char *p) {
  p = ws(p);
  if (*p == '"') return skip_string(p);
  if (*p == '{' || *p == '[') {
    int depth = 0;
    while (*p) {
      if (*p == '"') {
        if (!(p = skip_string(p))) return NULL;
        continue;
      }
      if (*p == '{' || *p == '[') depth++;
      if (*p == '}' || *p == ']') {
        if (--depth == 0) return p + 1;
      }
      p++;
    }
    return NULL;
  }
  while (*p && !strchr(",}] \t\r\n", *p)) p++; /* number, true, false, null */
  return p;
}

/* obj at a '{': the value of member `key` (NULL if absent). */
static const char *member(const char *obj, const char *key) {
  size_t len = strlen(key);
  const char *p = ws(obj);
  if (*p != '{') return NULL;
  p = ws(p + 1);
  while (*p == '"') {
    const char *end = skip_string(p);
    if (!end) return NULL;
    int match = (size_t)(end - p - 2) == len && strncmp(p + 1, key, len) == 0;
    p = ws(end);
    if (*p != ':') return NULL;
    p = ws(p + 1);
    if (match) return p;
    if (!(p = skip_value(p))) return NULL;
    p = ws(p);
    if (*p != ',') return NULL;
    p = ws(p + 1);
  }
  return NULL;
}

static unsigned long long state;

static unsigned long long next_random(void) { /* xorshift64* */
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ULL;
}

int main(void) {
  const char *seed = getenv("CROUPIER_SEED");
  state = (seed ? strtoull(seed, NULL, 10) : 0) * 2 + 1;
  /* the optional hello (first line): the name and version the match shows for this bot */
  printf("{\"hello\": {\"botName\": \"random-c\", \"botVersion\": \"1.0\"}}\n");
  fflush(stdout);
  char *line = NULL;
  size_t cap = 0;
  long *ids = NULL;
  size_t ids_cap = 0;
  while (getline(&line, &cap, stdin) != -1) {
    const char *decision = member(line, "decision");
    const char *p = decision ? member(decision, "legalActions") : NULL;
    if (!p || *p != '[') continue;
    size_t n = 0;
    for (p = ws(p + 1); *p == '{'; p = ws(p + 1)) {
      const char *id = member(p, "id");
      const char *range = member(p, "amounts");
      long first = id ? strtol(id, NULL, 10) : 0, count = 1, step = 1;
      if (range) {
        const char *lo = member(range, "lowest"), *hi = member(range, "highest");
        const char *st = member(range, "step");
        step = st ? strtol(st, NULL, 10) : 1;
        if (step < 1) step = 1;
        count = ((hi ? strtol(hi, NULL, 10) : 0) - (lo ? strtol(lo, NULL, 10) : 0)) / step + 1;
      }
      for (long k = 0; k < count; k++) {
        if (n == ids_cap) {
          ids_cap = ids_cap ? 2 * ids_cap : 64;
          ids = realloc(ids, ids_cap * sizeof *ids);
          if (!ids) return 1;
        }
        ids[n++] = first + k * step;
      }
      if (!(p = skip_value(p))) break;
      p = ws(p);
      if (*p != ',') break;
    }
    if (n == 0) continue;
    printf("%ld\n", ids[next_random() % n]);
    fflush(stdout);
  }
  free(ids);
  free(line);
  return 0;
}
