// TCG plugin for Debian 12's qemu-user 7.2 (qemu-riscv64, not -static): counts retired guest
// instructions and prints "insns N" at exit. qemu-plugin.h is not packaged, so the few API
// declarations used here are written out below for THAT version (plugin API version 1).
// With the argument marks=on (-plugin insn_count.so,marks=on) it also prints "mark I SYSCALL
// A1 COUNT" for every clock_gettime and write system call: run_export reads the clock around
// each timed inference and, with --layers, after each layer, so the differences between marks
// are instructions per inference and per layer from one run (qemu 7.2's linux-user has no
// vDSO, so every clock read is a system call the plugin sees).
// With blocks=PATH it also writes, at exit, one line "ADDRESS INSNS EXECUTIONS" per translated
// block (hex guest address) to PATH: bench/rvv/insn_functions.py sums them per function of the
// binary's symbol table (where a layer's instructions go, without a profiler on the board).
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// --- qemu 7.2 plugin API subset (include/qemu/qemu-plugin.h) -------------------------------
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; // only passed through: its layout does not matter here
struct qemu_plugin_tb;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1,
                                              uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                                              uint64_t a7, uint64_t a8);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb, enum qemu_plugin_op op, void* ptr,
                                              uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
void qemu_plugin_outs(const char* string);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb* tb);
// -------------------------------------------------------------------------------------------

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

// One counter: the benchmark runs with --threads 1, so one guest thread adds to it. An inline
// add per translated block (not a callback per instruction) keeps the overhead small; a block
// left early by an exception is counted whole, which is rare and deterministic.
static uint64_t g_insns;

// blocks=PATH: one record per translation (a block translated twice has two records; the
// summary adds them up). Allocated in chunks that are never freed before exit.
struct block {
    uint64_t vaddr, executions;
    uint32_t insns;
};
enum { kBlocksPerChunk = 4096 };
struct chunk {
    struct chunk* next;
    int used;
    struct block blocks[kBlocksPerChunk];
};
static struct chunk* g_chunks;
static const char* g_blocks_path;

static void on_tb_translated(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    (void)id;
    const size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &g_insns, n);
    if (!g_blocks_path) return;
    if (!g_chunks || g_chunks->used == kBlocksPerChunk) {
        struct chunk* c = calloc(1, sizeof *c);
        if (!c) return;
        c->next = g_chunks;
        g_chunks = c;
    }
    struct block* b = &g_chunks->blocks[g_chunks->used++];
    b->vaddr = qemu_plugin_tb_vaddr(tb);
    b->insns = (uint32_t)n;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->executions, 1);
}

static void write_blocks(void) {
    FILE* f = fopen(g_blocks_path, "w");
    if (!f) {
        qemu_plugin_outs("insn_count: cannot write the blocks file\n");
        return;
    }
    for (struct chunk* c = g_chunks; c; c = c->next)
        for (int i = 0; i < c->used; ++i)
            if (c->blocks[i].executions)
                fprintf(f, "%" PRIx64 " %u %" PRIu64 "\n", c->blocks[i].vaddr, c->blocks[i].insns,
                        c->blocks[i].executions);
    fclose(f);
}

// Marks: the count at each clock_gettime / write system call (the generic Linux numbers used by
// riscv64 and aarch64). Kept in memory and printed at exit so that printing adds no system calls.
enum { kSysWrite = 64, kSysClockGettime = 113, kMaxMarks = 1 << 16 };
struct mark {
    uint64_t count;
    uint64_t a1;
    int num;
};
static struct mark g_marks[kMaxMarks];
static int g_num_marks;
static int g_lost_marks;

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
                       uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8) {
    (void)id, (void)vcpu, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
    if (num != kSysWrite && num != kSysClockGettime) return;
    if (g_num_marks == kMaxMarks) {
        ++g_lost_marks;
        return;
    }
    g_marks[g_num_marks++] = (struct mark){g_insns, a1, (int)num};
}

static void print_count(qemu_plugin_id_t id, void* userdata) {
    (void)id;
    (void)userdata;
    char line[96];
    for (int i = 0; i < g_num_marks; ++i) {
        const char* name = g_marks[i].num == kSysWrite ? "write" : "clock";
        snprintf(line, sizeof line, "mark %d %s %" PRIu64 " %" PRIu64 "\n", i, name, g_marks[i].a1, g_marks[i].count);
        qemu_plugin_outs(line);
    }
    if (g_lost_marks) {
        snprintf(line, sizeof line, "marks_lost %d\n", g_lost_marks);
        qemu_plugin_outs(line);
    }
    snprintf(line, sizeof line, "insns %" PRIu64 "\n", g_insns);
    qemu_plugin_outs(line);
    if (g_blocks_path) write_blocks();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc, char** argv) {
    (void)info;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_translated);
    for (int i = 0; i < argc; ++i)
        if (strcmp(argv[i], "marks=on") == 0)
            qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
        else if (strncmp(argv[i], "blocks=", 7) == 0)
            g_blocks_path = argv[i] + 7;
    qemu_plugin_register_atexit_cb(id, print_count, NULL);
    return 0;
}
