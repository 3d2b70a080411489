// TCG plugin for Debian 12's qemu-user 7.2 (qemu-riscv64, not -static): counts retired guest
// instructions and prints "insns N" at exit. qemu-plugin.h is not packaged, so the few API
// declarations used here are written out below for THAT version (plugin API version 1).
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// --- qemu 7.2 plugin API subset (include/qemu/qemu-plugin.h) -------------------------------
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; // only passed through: its layout does not matter here
struct qemu_plugin_tb;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb, enum qemu_plugin_op op, void* ptr,
                                              uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
void qemu_plugin_outs(const char* string);
// -------------------------------------------------------------------------------------------

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

// One counter: the benchmark runs with --threads 1, so one guest thread adds to it. An inline
// add per translated block (not a callback per instruction) keeps the overhead small; a block
// left early by an exception is counted whole, which is rare and deterministic.
static uint64_t g_insns;

static void on_tb_translated(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &g_insns, qemu_plugin_tb_n_insns(tb));
}

static void print_count(qemu_plugin_id_t id, void* userdata) {
    (void)id;
    (void)userdata;
    char line[64];
    snprintf(line, sizeof line, "insns %" PRIu64 "\n", g_insns);
    qemu_plugin_outs(line);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc, char** argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_translated);
    qemu_plugin_register_atexit_cb(id, print_count, NULL);
    return 0;
}
