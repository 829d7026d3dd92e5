/*
 * rx-insn-count.c: a QEMU TCG plugin that counts the guest instructions a
 * program executes between two markers, for measuring RandomX hashes
 * under qemu-user without the hardware (tools/rx-insn-driver.c sets the
 * markers).  An instruction count, not a speed: it says nothing of memory
 * latency, of the dataset read, of issue width or of how long each
 * instruction takes.
 *
 * Built as a shared object against QEMU's plugin header (qemu-plugin.h of
 * the installed QEMU, which is not in this tree; see mk/randomx-a64.mk):
 *	qemu-aarch64 -plugin build/rx-insn-count.so PROGRAM ...
 * The markers are write() calls on file descriptor -1 (they fail with
 * EBADF and do nothing else): length 1 starts a window, length 2 ends it
 * and prints "insns: TOTAL image IMAGE other OTHER" on stderr, where image
 * counts the instructions at addresses in the executable's own text (the
 * plugin's argument text=LO:HI, hexadecimal, from the ELF headers) and
 * other everything else (code compiled at run time), then a line
 * "region ADDR: N" for every 64 KiB (or 2^SHIFT bytes with the argument
 * region=SHIFT) of other code that ran, so that the program's loop and
 * SuperscalarHash, compiled into different buffers or different parts of
 * one, can be told apart.  Counting is per translation block, inline, so it
 * costs the emulation little.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define AARCH64_WRITE 64	/* the write system call on aarch64 Linux */

static uint64_t text_lo, text_hi;
static unsigned region_shift = 16;
static uint64_t in_image, outside;	/* incremented by the guest's blocks */
static uint64_t start_image, start_outside;

/* other code by 64 KiB region: open addressing, the last slot catches
 * what does not fit */
#define REGIONS 256
static struct {
	uint64_t base, count, start;
} region[REGIONS + 1];

static uint64_t *region_counter(uint64_t pc)
{
	uint64_t base = pc >> region_shift << region_shift;
	unsigned i = (unsigned)(base >> region_shift) % REGIONS, k;

	for (k = 0; k < REGIONS; k++, i = (i + 1) % REGIONS) {
		if (region[i].base == base)
			return &region[i].count;
		if (!region[i].base) {
			region[i].base = base;
			return &region[i].count;
		}
	}
	return &region[REGIONS].count;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	uint64_t *counter = pc >= text_lo && pc < text_hi ? &in_image :
	    &outside;

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb,
	    QEMU_PLUGIN_INLINE_ADD_U64, counter, qemu_plugin_tb_n_insns(tb));
	if (counter == &outside)
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
		    QEMU_PLUGIN_INLINE_ADD_U64, region_counter(pc),
		    qemu_plugin_tb_n_insns(tb));
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
    uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
    uint64_t a6, uint64_t a7, uint64_t a8)
{
	char line[160];
	unsigned r;

	(void)id, (void)vcpu, (void)a2, (void)a4, (void)a5, (void)a6;
	(void)a7, (void)a8;
	if (num != AARCH64_WRITE || (int64_t)a1 != -1)
		return;
	if (a3 == 1) {
		start_image = in_image;
		start_outside = outside;
		for (r = 0; r <= REGIONS; r++)
			region[r].start = region[r].count;
	} else if (a3 == 2) {
		uint64_t i = in_image - start_image, o = outside - start_outside;

		snprintf(line, sizeof(line), "insns: %" PRIu64 " image %" PRIu64
		    " other %" PRIu64 "\n", i + o, i, o);
		qemu_plugin_outs(line);
		for (r = 0; r <= REGIONS; r++) {
			if (region[r].count == region[r].start)
				continue;
			snprintf(line, sizeof(line), "region %" PRIx64 ": %"
			    PRIu64 "\n", region[r].base,
			    region[r].count - region[r].start);
			qemu_plugin_outs(line);
		}
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
    const qemu_info_t *info, int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "text=", 5) &&
		    sscanf(argv[i] + 5, "%" SCNx64 ":%" SCNx64, &text_lo,
		    &text_hi) != 2)
			return 1;
		if (!strncmp(argv[i], "region=", 7) &&
		    (sscanf(argv[i] + 7, "%u", &region_shift) != 1 ||
		    region_shift < 2 || region_shift > 40))
			return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	return 0;
}
