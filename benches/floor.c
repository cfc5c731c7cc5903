/* floor.c - the syscall floor: the least a disk-usage walker must do, in C.
 *
 * benches/compare.sh times hogs against this walker to show how much of hogs'
 * time is the kernel's (listing directories, stat'ing entries) and how much is
 * its own. It does only what a du-exact total needs:
 *
 *   - getdents64 (the raw system call) into a 256 KiB buffer per thread;
 *   - fstatat relative to the directory's fd with AT_SYMLINK_NOFOLLOW (no
 *     path is ever built, so the kernel resolves one name per stat);
 *   - hard links counted once: a non-directory with st_nlink > 1 counts only
 *     the first time its (st_dev, st_ino) is seen (a hash set under a mutex);
 *   - -t N threads sharing one stack of work; a directory of more than 1,024
 *     names hands the rest out in batches of 512 names to stat on its fd.
 *
 *   floor [-t N] [-b] [-c] PATH...
 *     default  disk usage in bytes (st_blocks * 512), as `du -sB1`
 *     -b       apparent size (st_size), as `du -sb`
 *     -c       count entries without stat'ing files (d_type says which names
 *              are directories; DT_UNKNOWN is stat'ed): `du -s --inodes`,
 *              except that a hard-linked file counts once per name
 *     -t N     threads (default 1)
 *   prints "<total>\t<path>" per PATH, like du -s. (Given several PATHs, du
 *   also counts once an entry two of them share; floor only hard links.)
 *
 * Build: gcc -O2 -pthread -o floor benches/floor.c (compare.sh does it).
 * Linux only. Errors name the entry (not its full path) on stderr; exit 1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUF_SIZE (256 * 1024)
#define OWN_NAMES 1024 /* a directory stats this many names itself ... */
#define BATCH 512      /* ... and hands the rest out in batches of this many */

struct linux_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

enum mode { DISK, APPARENT, COUNT };
static enum mode mode = DISK;
static int nthreads = 1;
static atomic_int failed;

/* ---------------------------------------------------------------- hard links */

/* (dev, ino) pairs of files with more than one link; open addressing, linear
 * probing, grown at half full. ino 0 marks an empty slot (no file has it). */
struct key { uint64_t dev, ino; };
static struct key *set;
static size_t set_cap, set_len;
static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void set_put(struct key *slots, size_t cap, struct key k) {
    size_t i = mix(k.dev * 0x9e3779b97f4a7c15ULL ^ k.ino) & (cap - 1);
    while (slots[i].ino) i = (i + 1) & (cap - 1);
    slots[i] = k;
}

/* 1 when (dev, ino) was not in the set (it is now) */
static int first_sight(uint64_t dev, uint64_t ino) {
    int fresh = 1;
    pthread_mutex_lock(&set_lock);
    if (2 * (set_len + 1) > set_cap) {
        size_t cap = set_cap ? 2 * set_cap : 1024;
        struct key *slots = calloc(cap, sizeof *slots);
        if (!slots) { perror("floor"); exit(2); }
        for (size_t i = 0; i < set_cap; i++)
            if (set[i].ino) set_put(slots, cap, set[i]);
        free(set);
        set = slots, set_cap = cap;
    }
    size_t i = mix(dev * 0x9e3779b97f4a7c15ULL ^ ino) & (set_cap - 1);
    for (; set[i].ino; i = (i + 1) & (set_cap - 1))
        if (set[i].ino == ino && set[i].dev == dev) { fresh = 0; break; }
    if (fresh) set[i] = (struct key){dev, ino}, set_len++;
    pthread_mutex_unlock(&set_lock);
    return fresh;
}

/* ---------------------------------------------------------------- work */

/* An open directory, shared by the work that names entries in it; closed when
 * the last of them is done. */
struct dir {
    int fd;
    atomic_int refs;
};

static void dir_put(struct dir *d) {
    if (atomic_fetch_sub(&d->refs, 1) == 1) {
        close(d->fd);
        free(d);
    }
}

/* One piece of work: `count` NUL-separated names in `parent`. With `open`,
 * the one name is a directory to read; else every name is to be stat'ed. */
struct work {
    struct dir *parent; /* NULL: the name is a path from the current directory */
    int open;
    int count;
    char *names;
};

static struct work *stack;
static size_t stack_len, stack_cap;
static int busy; /* threads holding work */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;

static void push_all(struct work *w, size_t n) {
    if (!n) return;
    pthread_mutex_lock(&lock);
    if (stack_len + n > stack_cap) {
        while (stack_len + n > stack_cap) stack_cap = stack_cap ? 2 * stack_cap : 256;
        stack = realloc(stack, stack_cap * sizeof *stack);
        if (!stack) { perror("floor"); exit(2); }
    }
    memcpy(stack + stack_len, w, n * sizeof *w);
    stack_len += n;
    if (n > 1) pthread_cond_broadcast(&wake); else pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
}

/* the next work, or 0 when the stack is empty and no thread can add to it */
static int pop(struct work *out) {
    pthread_mutex_lock(&lock);
    while (!stack_len && busy) pthread_cond_wait(&wake, &lock);
    if (!stack_len) {
        pthread_cond_broadcast(&wake);
        pthread_mutex_unlock(&lock);
        return 0;
    }
    *out = stack[--stack_len];
    busy++;
    pthread_mutex_unlock(&lock);
    return 1;
}

static void done(void) {
    pthread_mutex_lock(&lock);
    if (!--busy && !stack_len) pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
}

/* ---------------------------------------------------------------- the walk */

struct worker {
    char *buf;
    uint64_t total;
    struct work *found; /* work made while reading one directory */
    size_t nfound, capfound;
};

static void add_work(struct worker *t, struct work w) {
    if (t->nfound == t->capfound) {
        t->capfound = t->capfound ? 2 * t->capfound : 64;
        t->found = realloc(t->found, t->capfound * sizeof *t->found);
        if (!t->found) { perror("floor"); exit(2); }
    }
    t->found[t->nfound++] = w;
}

static void fail(const char *what, const char *name) {
    fprintf(stderr, "floor: %s '%s': %s\n", what, name, strerror(errno));
    atomic_store(&failed, 1);
}

static uint64_t size_of(const struct stat *st) {
    return mode == APPARENT ? (uint64_t)st->st_size : (uint64_t)st->st_blocks * 512;
}

static void descend(struct worker *t, struct dir *d, const char *name, size_t len) {
    char *copy = malloc(len + 1);
    if (!copy) { perror("floor"); exit(2); }
    memcpy(copy, name, len + 1);
    atomic_fetch_add(&d->refs, 1);
    add_work(t, (struct work){d, 1, 1, copy});
}

/* count or stat one entry of d; a directory becomes work */
static void entry(struct worker *t, struct dir *d, const char *name, unsigned char type) {
    size_t len = strlen(name);
    if (mode == COUNT && type != DT_UNKNOWN) {
        t->total++;
        if (type == DT_DIR) descend(t, d, name, len);
        return;
    }
    struct stat st;
    if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW)) { fail("cannot stat", name); return; }
    if (mode == COUNT) {
        t->total++;
    } else if (S_ISDIR(st.st_mode) || st.st_nlink < 2 || first_sight(st.st_dev, st.st_ino)) {
        t->total += size_of(&st);
    }
    if (S_ISDIR(st.st_mode)) descend(t, d, name, len);
}

static int dots(const char *n) { return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])); }

static void read_dir(struct worker *t, struct work *w) {
    int base = w->parent ? w->parent->fd : AT_FDCWD;
    int fd = openat(base, w->names, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) { fail("cannot open", w->names); return; }
    struct dir *d = malloc(sizeof *d);
    if (!d) { perror("floor"); exit(2); }
    d->fd = fd;
    atomic_init(&d->refs, 1);
    /* names past OWN_NAMES go out in batches (only where stat'ing is the work
     * and another thread can take it) */
    int hand_out = mode != COUNT && nthreads > 1;
    size_t seen = 0, bcount = 0, bused = 0, bcap = 0;
    char *batch = NULL;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, t->buf, BUF_SIZE);
        if (n < 0) { fail("cannot read", w->names); break; }
        if (n == 0) break;
        for (long off = 0; off < n;) {
            struct linux_dirent64 *e = (struct linux_dirent64 *)(t->buf + off);
            off += e->d_reclen;
            if (dots(e->d_name)) continue;
            if (!hand_out || seen++ < OWN_NAMES) { entry(t, d, e->d_name, e->d_type); continue; }
            size_t len = strlen(e->d_name) + 1;
            if (!batch) bcap = BATCH * 32, batch = malloc(bcap), bused = bcount = 0;
            if (bused + len > bcap) batch = realloc(batch, bcap *= 2);
            if (!batch) { perror("floor"); exit(2); }
            memcpy(batch + bused, e->d_name, len);
            bused += len;
            if (++bcount == BATCH) {
                atomic_fetch_add(&d->refs, 1);
                add_work(t, (struct work){d, 0, (int)bcount, batch});
                batch = NULL;
            }
        }
        /* found work goes out while the listing goes on, so that the other
         * threads stat a huge directory's batches as it is read */
        if (hand_out && t->nfound) push_all(t->found, t->nfound), t->nfound = 0;
    }
    if (batch) {
        atomic_fetch_add(&d->refs, 1);
        add_work(t, (struct work){d, 0, (int)bcount, batch});
    }
    dir_put(d);
}

static void do_work(struct worker *t, struct work *w) {
    if (w->open) {
        read_dir(t, w);
    } else {
        const char *name = w->names;
        for (int i = 0; i < w->count; i++, name += strlen(name) + 1)
            entry(t, w->parent, name, DT_UNKNOWN);
    }
    if (w->parent) dir_put(w->parent);
    free(w->names);
    push_all(t->found, t->nfound);
    t->nfound = 0;
}

static atomic_uint_fast64_t grand_total;

static void *run(void *arg) {
    (void)arg;
    struct worker t = {0};
    t.buf = malloc(BUF_SIZE);
    if (!t.buf) { perror("floor"); exit(2); }
    struct work w;
    while (pop(&w)) {
        do_work(&t, &w);
        done();
    }
    atomic_fetch_add(&grand_total, t.total);
    free(t.buf);
    free(t.found);
    return NULL;
}

/* the total of one path: its own size or count, plus its contents' */
static uint64_t walk(const char *path) {
    struct stat st;
    if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW)) { fail("cannot access", path); return 0; }
    uint64_t own;
    if (mode == COUNT) own = 1;
    else own = (S_ISDIR(st.st_mode) || st.st_nlink < 2 || first_sight(st.st_dev, st.st_ino)) ? size_of(&st) : 0;
    if (!S_ISDIR(st.st_mode)) return own;

    char *name = strdup(path);
    if (!name) { perror("floor"); exit(2); }
    push_all(&(struct work){NULL, 1, 1, name}, 1);
    atomic_store(&grand_total, 0);
    pthread_t *extra = calloc(nthreads, sizeof *extra);
    if (!extra) { perror("floor"); exit(2); }
    for (int i = 1; i < nthreads; i++)
        if (pthread_create(&extra[i], NULL, run, NULL)) { perror("floor: pthread_create"); exit(2); }
    run(NULL);
    for (int i = 1; i < nthreads; i++) pthread_join(extra[i], NULL);
    free(extra);
    return own + atomic_load(&grand_total);
}

int main(int argc, char **argv) {
    int opt;
    while ((opt = getopt(argc, argv, "t:bc")) != -1) {
        switch (opt) {
        case 't': nthreads = atoi(optarg); break;
        case 'b': mode = APPARENT; break;
        case 'c': mode = COUNT; break;
        default:
            fprintf(stderr, "usage: floor [-t THREADS] [-b | -c] PATH...\n");
            return 2;
        }
    }
    if (nthreads < 1) { fprintf(stderr, "floor: -t: at least 1\n"); return 2; }
    if (optind == argc) { fprintf(stderr, "usage: floor [-t THREADS] [-b | -c] PATH...\n"); return 2; }
    /* every directory with work pending keeps its fd: allow as many as may be */
    struct rlimit rl;
    if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    for (int i = optind; i < argc; i++) {
        uint64_t total = walk(argv[i]);
        printf("%llu\t%s\n", (unsigned long long)total, argv[i]);
    }
    return atomic_load(&failed) ? 1 : 0;
}
