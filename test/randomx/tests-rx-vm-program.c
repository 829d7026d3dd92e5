/*
 * tests-rx-vm-program.c: programs: configuration words, decoding, every
 * instruction's result, the rounding modes, CBRANCH, scratchpad levels,
 * and the vector file's single programs.
 *
 * Part of tests-rx-vm, included by tests-rx-vm.c (which has the includes,
 * the shared helpers and main): the parts are one program so that their
 * checks add up to one count and one summary line.
 */

/* ---- programs: configuration and decoding ---- */

/* Opcode `which` (0 = first, 1 = last) of instruction `instr`. */
static unsigned opcode(unsigned instr, int which)
{
	unsigned i, first = 0;

	for (i = 0; i < instr; i++)
		first += freq[i];
	return which ? first + freq[instr] - 1 : first;
}

/* Instruction words are built with alternately the first and last opcode. */
static int opcode_pick;

static void put(uint8_t *w, unsigned instr, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32)
{
	w[0] = (uint8_t)opcode(instr, opcode_pick);
	opcode_pick ^= 1;
	/* the unused high bits of dst and src must not matter */
	w[1] = (uint8_t)(dst | 0xc0);
	w[2] = (uint8_t)(src | 0xf8);
	w[3] = (uint8_t)mod;
	le32enc(w + 4, imm32);
}

static void test_opcode_table(void)
{
	unsigned i, sum = 0;

	for (i = 0; i < I_COUNT; i++)
		sum += freq[i];
	check("instruction frequencies sum to 256", sum == 256);
	check("opcode ranges as table 5.1.1 counts them: ISTORE last",
	    opcode(I_ISTORE, 1) == 255 && opcode(I_CFROUND, 0) == 239);
}

static void test_configure(void)
{
	uint8_t b[128];
	rx_program_config cfg;
	uint64_t w[16];
	unsigned i;
	int ok;

	for (i = 0; i < 16; i++)
		w[i] = rng64();
	w[0] = (31ULL << 59) | 0x0123456789abcULL;	/* exponent 31 */
	w[1] = 0x07ffffffffffffffULL;	/* exponent 0, reserved bits set */
	w[8] = UINT64_MAX;
	w[10] = 0xabcdef0123456789ULL;
	w[12] = 0xa;			/* bits 1 and 3 */
	w[13] = 524288 * 3ULL + 5;	/* extra items + 1 = 524288 */
	w[14] = 0xf00000000012345fULL;
	w[15] = 0x1000000000000000ULL;
	for (i = 0; i < 16; i++)
		le64enc(b + 8 * i, w[i]);
	rx_program_configure(b, &cfg);
	check("a0 low: +1.fraction x 2^31",
	    cfg.a[0] == (((1023ULL + 31) << 52) | 0x0123456789abcULL));
	check("a0 high: exponent 0, bits 52-58 ignored",
	    cfg.a[1] == ((1023ULL << 52) | 0x000fffffffffffffULL));
	ok = 1;
	for (i = 2; i < 8; i++)
		ok &= cfg.a[i] == ((((w[i] >> 59) + 1023) << 52) |
		    (w[i] & 0x000fffffffffffffULL));
	check("a1-a3 from words 2-7", ok);
	check("ma: low 32 bits of word 8, 64-byte aligned, below 2 GiB",
	    cfg.ma == 0x7fffffc0);
	check("mx: low 32 bits of word 10", cfg.mx == 0x23456789);
	check("readReg0-3 from bits 0-3 of word 12",
	    cfg.read_reg[0] == 0 && cfg.read_reg[1] == 3 &&
	    cfg.read_reg[2] == 4 && cfg.read_reg[3] == 7);
	check("datasetOffset: word 13 mod 524288, times 64",
	    cfg.dataset_offset == 5 * 64);
	check("E mask of word 14: fraction 0x12345f, exponent 0x3f0",
	    cfg.e_mask[0] == ((0x3f0ULL << 52) | 0x12345f));
	check("E mask of word 15: exponent 0x310",
	    cfg.e_mask[1] == (0x310ULL << 52));
	le64enc(b + 8 * 13, UINT64_MAX);
	rx_program_configure(b, &cfg);
	check("datasetOffset of 2^64 - 1: 524287 * 64",
	    cfg.dataset_offset == 524287ULL * 64);
}

#define IMM32 3234567890u			/* tests.cpp's */
#define IMM64 0xffffffffc0cb96d2ULL		/* sign-extended */

static rx_insn code[RX_PROGRAM_MAX_SIZE + 1];

static unsigned decode1(unsigned instr, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32)
{
	uint8_t w[8];

	put(w, instr, dst, src, mod, imm32);
	return rx_program_decode(w, 1, code);
}

/* tests.cpp's decoder checks, in this decoder's terms. */
static void test_decode(void)
{
	unsigned n;

	decode1(I_IADD_RS, 0, 1, 0xff, IMM32);
	check("IADD_RS decode: shift 3, no imm",
	    code[0].op == RX_OP_IADD_RS && code[0].dst == 0 &&
	    code[0].src == 1 && code[0].shift == 3 && code[0].imm == 0 &&
	    code[1].op == RX_OP_END);
	decode1(I_IADD_RS, 5, 1, 8, IMM32);
	check("IADD_RS decode: r5 gets imm, shift 2",
	    code[0].dst == 5 && code[0].shift == 2 && code[0].imm == IMM64);
	decode1(I_IADD_M, 0, 1, 1, IMM32);
	check("IADD_M decode: L1", code[0].op == RX_OP_IADD_M &&
	    code[0].src == 1 && code[0].imm == IMM64 &&
	    code[0].mask == 16376);
	decode1(I_ISUB_M, 0, 1, 0, IMM32);
	check("ISUB_M decode: L2", code[0].op == RX_OP_ISUB_M &&
	    code[0].mask == 262136);
	decode1(I_IMUL_M, 0, 0, 0, IMM32);
	check("IMUL_M decode: src = dst reads L3 at imm",
	    code[0].op == RX_OP_IMUL_M && code[0].src == RX_REG_ZERO &&
	    code[0].mask == 2097144 && code[0].imm == IMM64);
	decode1(I_ISMULH_M, 0, 1, 3, IMM32);
	check("ISMULH_M decode: mod.mem 3 is L1", code[0].mask == 16376);
	decode1(I_IMUL_RCP, 0, 0, 0, IMM32);
	/* floor(2^(63 + 32) / 3234567890): 32 bits, so x = 95 */
	check("IMUL_RCP decode: multiply by the reciprocal",
	    code[0].op == RX_OP_IMUL_C && code[0].imm == 0xa9f671ed1d69b73cULL);
	n = decode1(I_IMUL_RCP, 0, 0, 0, 0);
	check("IMUL_RCP of 0 is a no-op", n == 0 && code[0].op == RX_OP_END);
	n = decode1(I_IMUL_RCP, 0, 0, 0, 1u << 20);
	check("IMUL_RCP of a power of 2 is a no-op", n == 0);
	n = decode1(I_ISWAP_R, 3, 3, 0, 0);
	check("ISWAP_R of a register with itself is a no-op", n == 0);
	decode1(I_FSWAP_R, 6, 0, 0, 0);
	check("FSWAP_R decode: dst 6 is e2", code[0].op == RX_OP_FSWAP_R &&
	    code[0].dst == 6);
	decode1(I_FMUL_R, 2, 3, 0, 0);
	check("FMUL_R decode: e2 by a3", code[0].op == RX_OP_FMUL_R &&
	    code[0].dst == 6 && code[0].src == 3);
	decode1(I_FADD_M, 0, 1, 1, IMM32);
	check("FADD_M decode: L1", code[0].op == RX_OP_FADD_M &&
	    code[0].src == 1 && code[0].mask == 16376 &&
	    code[0].imm == IMM64);
	decode1(I_FSUB_M, 0, 1, 2, IMM32);
	check("FSUB_M decode: mod.mem 2 is L1", code[0].mask == 16376);
	decode1(I_FDIV_M, 0, 1, 3, IMM32);
	check("FDIV_M decode: e0, L1", code[0].op == RX_OP_FDIV_M &&
	    code[0].dst == 4 && code[0].mask == 16376);
	decode1(I_CBRANCH, 0, 0, 48, IMM32);
	check("CBRANCH decode: cimm, condition mask, no target yet",
	    code[0].op == RX_OP_CBRANCH && code[0].imm == 0xffffffffc0cb9ad2ULL
	    && code[0].mask == 0x7f800 && code[0].target == 0);
	decode1(I_CFROUND, 0, 1, 0, IMM32);
	check("CFROUND decode: rotation imm32 & 63 = 18",
	    code[0].op == RX_OP_CFROUND && code[0].src == 1 &&
	    code[0].imm == 18);
	decode1(I_ISTORE, 0, 1, 1, IMM32);
	check("ISTORE decode: L1", code[0].mask == 16376);
	decode1(I_ISTORE, 0, 1, 0, IMM32);
	check("ISTORE decode: L2", code[0].mask == 262136);
	decode1(I_ISTORE, 0, 1, 224, IMM32);
	check("ISTORE decode: mod.cond 14 is L3", code[0].mask == 2097144);
}

/* ---- instruction semantics ---- */

static uint8_t *spad;		/* a scratchpad for single instructions */
static uint64_t e_mask[2];

static void run_words(const uint8_t *w, unsigned n, rx_regfile *r, int v2,
    unsigned *fprc)
{
	rx_program_decode(w, n, code);
	rx_vm_exec_code(code, r, spad, e_mask, v2, fprc);
}

/* One instruction on registers r; fprc is the rounding mode. */
static void run1(rx_regfile *r, unsigned instr, unsigned dst, unsigned src,
    unsigned mod, uint32_t imm32, unsigned fprc)
{
	uint8_t w[8];

	put(w, instr, dst, src, mod, imm32);
	run_words(w, 1, r, 0, &fprc);
}

static void set_f(uint64_t *pair, uint64_t hi, uint64_t lo)
{
	pair[0] = lo;
	pair[1] = hi;
}

static int pair_is(const uint64_t *pair, const char *hex)
{
	uint8_t b[16];

	le64enc(b, pair[0]);
	le64enc(b + 8, pair[1]);
	return equals_hex(b, hex);
}

static void test_integer_ops(void)
{
	rx_regfile r;
	uint64_t x;

	memset(&r, 0, sizeof(r));
	r.r[0] = 0x8000000000000000ULL;
	r.r[1] = 0x1000000000000000ULL;
	run1(&r, I_IADD_RS, 0, 1, 0xff, IMM32, 0);
	check("IADD_RS", r.r[0] == 0);
	r.r[5] = 0x8000000000000000ULL;
	r.r[1] = 0x2000000000000000ULL;
	run1(&r, I_IADD_RS, 5, 1, 8, IMM32, 0);
	check("IADD_RS r5 with imm", r.r[5] == IMM64);
	r.r[2] = 5;
	run1(&r, I_IADD_RS, 2, 2, 4, IMM32, 0);
	check("IADD_RS with src = dst: dst + (dst << 1)", r.r[2] == 15);

	r.r[0] = 1;
	r.r[1] = 0xffffffff;
	run1(&r, I_ISUB_R, 0, 1, 0, IMM32, 0);
	check("ISUB_R", r.r[0] == 0xffffffff00000002ULL);
	r.r[0] = 0;
	run1(&r, I_ISUB_R, 0, 0, 0, IMM32, 0);
	check("ISUB_R with imm", r.r[0] == ~IMM64 + 1);

	r.r[0] = 0xbc550e96ba88a72bULL;
	r.r[1] = 0xf5391fa9f18d6273ULL;
	run1(&r, I_IMUL_R, 0, 1, 0, IMM32, 0);
	check("IMUL_R", r.r[0] == 0x28723424a9108e51ULL);
	r.r[0] = 1;
	run1(&r, I_IMUL_R, 0, 0, 0, IMM32, 0);
	check("IMUL_R with imm", r.r[0] == IMM64);

	r.r[0] = 0xbc550e96ba88a72bULL;
	r.r[1] = 0xf5391fa9f18d6273ULL;
	run1(&r, I_IMULH_R, 0, 1, 0, IMM32, 0);
	check("IMULH_R", r.r[0] == 0xb4676d31d2b34883ULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_IMULH_R, 0, 0, 0, IMM32, 0);
	check("IMULH_R squares when src = dst",
	    r.r[0] == 0x8a8d09b012e5696cULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	r.r[1] = 0xf5391fa9f18d6273ULL;
	run1(&r, I_ISMULH_R, 0, 1, 0, IMM32, 0);
	check("ISMULH_R", r.r[0] == 0x02d93ef1269d3ee5ULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_ISMULH_R, 0, 0, 0, IMM32, 0);
	check("ISMULH_R squares when src = dst",
	    r.r[0] == 0x11e2ec829dd41b16ULL);

	r.r[3] = 0xbc550e96ba88a72bULL;
	run1(&r, I_IMUL_RCP, 3, 0, 0, 3, 0);
	check("IMUL_RCP by 3: times 12297829382473034410 (reference's "
	    "reciprocal)", r.r[3] == 0x8271f6462e4f908eULL);
	x = r.r[3];
	run1(&r, I_IMUL_RCP, 3, 0, 0, 0, 0);
	run1(&r, I_IMUL_RCP, 3, 0, 0, 0x80000000u, 0);
	check("IMUL_RCP by 0 or 2^31 changes nothing", r.r[3] == x);

	r.r[0] = 0xffffffffffffffffULL;
	run1(&r, I_INEG_R, 0, 0, 0, IMM32, 0);
	check("INEG_R", r.r[0] == 1);

	r.r[0] = 0x8888888888888888ULL;
	r.r[1] = 0xaaaaaaaaaaaaaaaaULL;
	run1(&r, I_IXOR_R, 0, 1, 0, IMM32, 0);
	check("IXOR_R", r.r[0] == 0x2222222222222222ULL);
	r.r[0] = 0xffffffffffffffffULL;
	run1(&r, I_IXOR_R, 0, 0, 0, IMM32, 0);
	check("IXOR_R with imm", r.r[0] == ~IMM64);

	r.r[0] = 953360005391419562ULL;
	r.r[1] = 4569451684712230561ULL;
	run1(&r, I_IROR_R, 0, 1, 0, IMM32, 0);
	check("IROR_R", r.r[0] == 0xd835c455069d81efULL);
	r.r[0] = 953360005391419562ULL;
	run1(&r, I_IROL_R, 0, 1, 0, IMM32, 0);
	check("IROL_R", r.r[0] == 6978065200552740799ULL);
	r.r[0] = 0x0123456789abcdefULL;
	run1(&r, I_IROR_R, 0, 0, 0, 64 + 8, 0);
	check("IROR_R with imm (masked to 6 bits)",
	    r.r[0] == 0xef0123456789abcdULL);
	run1(&r, I_IROL_R, 0, 0, 0, 4, 0);
	check("IROL_R with imm", r.r[0] == 0xf0123456789abcdeULL);
	run1(&r, I_IROL_R, 0, 0, 0, 64, 0);
	check("IROL_R by 0", r.r[0] == 0xf0123456789abcdeULL);

	r.r[0] = 953360005391419562ULL;
	r.r[1] = 4569451684712230561ULL;
	run1(&r, I_ISWAP_R, 0, 1, 0, IMM32, 0);
	check("ISWAP_R", r.r[0] == 4569451684712230561ULL &&
	    r.r[1] == 953360005391419562ULL);
}

/* Memory operands: src + imm masked to the level, or imm alone in L3. */
static void test_memory_ops(void)
{
	rx_regfile r;
	uint64_t a = 0x123456789abcdef0ULL;
	uint32_t l1, l2, l3;

	memset(&r, 0, sizeof(r));
	memset(spad, 0, RX_SCRATCHPAD_L3);
	r.r[1] = 0xfffffffffff00000ULL + 0x3a5c7;
	l1 = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L1 - 8);
	l2 = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L2 - 8);
	l3 = (uint32_t)IMM64 & (RX_SCRATCHPAD_L3 - 8);
	le64enc(spad + l1, 11);
	le64enc(spad + l2, 1000);
	le64enc(spad + l3, 100000);
	r.r[0] = 1;
	run1(&r, I_IADD_M, 0, 1, 1, IMM32, 0);
	check("IADD_M from L1", r.r[0] == 12);
	run1(&r, I_IADD_M, 0, 1, 0, IMM32, 0);
	check("IADD_M from L2", r.r[0] == 1012);
	run1(&r, I_IADD_M, 0, 0, 2, IMM32, 0);
	check("IADD_M with src = dst: imm in L3", r.r[0] == 101012);
	run1(&r, I_ISUB_M, 0, 1, 0, IMM32, 0);
	check("ISUB_M", r.r[0] == 100012);
	r.r[0] = a;
	run1(&r, I_IMUL_M, 0, 1, 3, IMM32, 0);
	check("IMUL_M", r.r[0] == a * 11);
	le64enc(spad + l2, 0x1234567890abcdefULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_IMULH_M, 0, 1, 0, IMM32, 0);
	check("IMULH_M", r.r[0] == 0x0d647bead4ef3559ULL);
	le64enc(spad + l2, 0xf234567890abcdefULL);
	r.r[0] = 0xbc550e96ba88a72bULL;
	run1(&r, I_ISMULH_M, 0, 1, 0, IMM32, 0);
	check("ISMULH_M", r.r[0] == 0x03a5839f6cf25285ULL);
	r.r[0] = a;
	run1(&r, I_IXOR_M, 0, 1, 1, IMM32, 0);
	check("IXOR_M", r.r[0] == (a ^ 11));

	r.r[0] = r.r[1];
	r.r[1] = 0x5555aaaa5555aaaaULL;
	memset(spad, 0, RX_SCRATCHPAD_L3);
	run1(&r, I_ISTORE, 0, 1, 1, IMM32, 0);
	check("ISTORE to L1", le64dec(spad + l1) == r.r[1]);
	run1(&r, I_ISTORE, 0, 1, 0, IMM32, 0);
	check("ISTORE to L2", le64dec(spad + l2) == r.r[1]);
	run1(&r, I_ISTORE, 0, 1, 0xe0, IMM32, 0);
	l3 = (uint32_t)(r.r[0] + IMM64) & (RX_SCRATCHPAD_L3 - 8);
	check("ISTORE to L3 (mod.cond 14)", le64dec(spad + l3) == r.r[1]);
	run1(&r, I_ISTORE, 0, 0, 0xf1, IMM32, 0);
	check("ISTORE with src = dst (mod.cond 15: L3)",
	    le64dec(spad + l3) == r.r[0]);
}

/* tests.cpp's floating-point answers (rounding modes 0-3). */
static void test_fp_ops(void)
{
	static const char *const fadd[4] = {
		"b932e048a730cec1fea6ea633bcc2d40",
		"b932e048a730cec1fda6ea633bcc2d40",
		"b832e048a730cec1fea6ea633bcc2d40",
		"b832e048a730cec1fda6ea633bcc2d40"
	};
	static const char *const fmul[4] = {
		"69697aff350fd3422f1589cdecfed742",
		"69697aff350fd3422e1589cdecfed742",
		"6a697aff350fd3422f1589cdecfed742",
		"69697aff350fd3422e1589cdecfed742"
	};
	static const char *const fdiv[4] = {
		"e7b269639484434632474a66635ba547",
		"e6b269639484434632474a66635ba547",
		"e7b269639484434633474a66635ba547",
		"e6b269639484434632474a66635ba547"
	};
	static const char *const fsqrt[4] = {
		"e81f300b612a21408dbaa33f570ed340",
		"e81f300b612a21408cbaa33f570ed340",
		"e91f300b612a21408dbaa33f570ed340",
		"e81f300b612a21408cbaa33f570ed340"
	};
	static const char *const mode[4] = {
		"nearest", "down", "up", "toward zero"
	};
	uint64_t one = 0x3ff0000000000000ULL, tiny = 0x3c30000000000000ULL;
	uint32_t addr;
	rx_regfile r;
	char what[96];
	unsigned m;

	memset(&r, 0, sizeof(r));
	set_f(r.f, 953360005391419562ULL, 4569451684712230561ULL);
	run1(&r, I_FSWAP_R, 0, 0, 0, 0, 0);
	check("FSWAP_R on f0", pair_is(r.f, "aa886bb0df033b0da12e95e518f4693f"));
	set_f(r.e + 2, 953360005391419562ULL, 4569451684712230561ULL);
	run1(&r, I_FSWAP_R, 5, 0, 0, 0, 0);
	check("FSWAP_R on e1 (dst 5)",
	    pair_is(r.e + 2, "aa886bb0df033b0da12e95e518f4693f"));

	for (m = 0; m < 4; m++) {
		set_f(r.f, 0x3ffd2c97cc4ef015ULL, 0xc1ce30b3c4223576ULL);
		set_f(r.a + 2, 0x402a26a86a60c8fbULL, 0x40b8f684057a59e1ULL);
		run1(&r, I_FADD_R, 0, 1, 0, 0, m);
		snprintf(what, sizeof(what), "FADD_R rounding %s", mode[m]);
		check(what, pair_is(r.f, fadd[m]));

		set_f(r.e, 0x41dbc35cef248783ULL, 0x40fdfdabb6173d07ULL);
		set_f(r.a + 2, 0x40eba861aa31c7c0ULL, 0x41c4561212ae2d50ULL);
		run1(&r, I_FMUL_R, 0, 1, 0, 0, m);
		snprintf(what, sizeof(what), "FMUL_R rounding %s", mode[m]);
		check(what, pair_is(r.e, fmul[m]));

		/* tests.cpp's operand, at the L1 address src + imm gives */
		memset(spad, 0, RX_SCRATCHPAD_L1);
		r.r[1] = 0xffffffffffffe930ULL;
		addr = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L1 - 8);
		le32enc(spad + addr, 0xd350a1b6);
		le32enc(spad + addr + 4, 0x8b2460d9);
		e_mask[0] = 0x3a0000000005d11aULL;
		e_mask[1] = 0x39000000001ba31eULL;
		set_f(r.e, 0x41937f76fede16eeULL, 0x411b414296ce93b6ULL);
		run1(&r, I_FDIV_M, 0, 1, 3, IMM32, m);
		snprintf(what, sizeof(what), "FDIV_M rounding %s", mode[m]);
		check(what, pair_is(r.e, fdiv[m]));

		set_f(r.e, 0x41b6b21c11affea7ULL, 0x40526a7e778d9824ULL);
		run1(&r, I_FSQRT_R, 0, 0, 0, 0, m);
		snprintf(what, sizeof(what), "FSQRT_R rounding %s", mode[m]);
		check(what, pair_is(r.e, fsqrt[m]));

		/* 1 - 2^-60 is between 1 - 2^-53 and 1 */
		set_f(r.f + 4, one, one);
		set_f(r.a, tiny, 0);
		run1(&r, I_FSUB_R, 2, 0, 0, 0, m);
		snprintf(what, sizeof(what), "FSUB_R rounding %s", mode[m]);
		check(what, r.f[5] == ((m == 1 || m == 3) ?
		    0x3fefffffffffffffULL : one) && r.f[4] == one);
	}

	memset(spad, 0, RX_SCRATCHPAD_L1);
	r.r[1] = 0xffffffffffffe930ULL;
	addr = (uint32_t)(r.r[1] + IMM64) & (RX_SCRATCHPAD_L1 - 8);
	le64enc(spad + addr, 0x1234567890abcdefULL);
	memset(r.f, 0, sizeof(r.f));
	run1(&r, I_FADD_M, 0, 1, 1, IMM32, 0);
	check("FADD_M: two int32 as doubles",
	    pair_is(r.f, "000040840cd5dbc1000000785634b241"));
	run1(&r, I_FSUB_M, 0, 1, 1, IMM32, 0);
	check("FSUB_M", r.f[0] == 0 && r.f[1] == 0);

	set_f(r.f + 6, 0x41dbc35cef248783ULL, 0x40fdfdabb6173d07ULL);
	run1(&r, I_FSCAL_R, 3, 0, 0, 0, 0);
	check("FSCAL_R", pair_is(r.f + 6, "073d17b6abfd0dc0838724ef5cc32bc1"));
}

/* CFROUND's rotation, and v2's one-in-16 rule; the mode then applies. */
static void test_cfround(void)
{
	uint8_t w[16];
	rx_regfile r;
	unsigned m, fprc, v2;
	int ok_v1 = 1, ok_v2 = 1, ok_v2_keep = 1, ok_use = 1;

	memset(&r, 0, sizeof(r));
	for (v2 = 0; v2 < 2; v2++)
		for (m = 0; m < 4; m++) {
			/* imm32 = 0x3f2: rotate right by 50 */
			r.r[1] = (uint64_t)m << 50;
			fprc = 3 - m;
			put(w, I_CFROUND, 0, 1, 0, 0x3f2);
			run_words(w, 1, &r, (int)v2, &fprc);
			if (v2)
				ok_v2 &= fprc == m;
			else
				ok_v1 &= fprc == m;
			/* bits 2-5 of the rotated value set: v2 keeps fprc */
			r.r[1] = ((uint64_t)m << 50) | (1ULL << (50 + 2 +
			    m));
			fprc = 3 - m;
			run_words(w, 1, &r, (int)v2, &fprc);
			if (v2)
				ok_v2_keep &= fprc == 3 - m;
			else
				ok_v1 &= fprc == m;
		}
	check("CFROUND v1: fprc = (src >>> imm) & 3", ok_v1);
	check("CFROUND v2: fprc set when bits 2-5 are 0", ok_v2);
	check("CFROUND v2: fprc kept otherwise", ok_v2_keep);
	for (m = 0; m < 4; m++) {
		r.r[2] = (uint64_t)m << 7 | 0x1000;	/* bit 12: v1 only */
		set_f(r.f, 0x3ffd2c97cc4ef015ULL, 0xc1ce30b3c4223576ULL);
		set_f(r.a + 2, 0x402a26a86a60c8fbULL, 0x40b8f684057a59e1ULL);
		put(w, I_CFROUND, 0, 2, 0, 7);
		put(w + 8, I_FADD_R, 0, 1, 0, 0);
		fprc = 0;
		run_words(w, 2, &r, 0, &fprc);
		ok_use &= fprc == m && pair_is(r.f, m == 0 ?
		    "b932e048a730cec1fea6ea633bcc2d40" : m == 1 ?
		    "b932e048a730cec1fda6ea633bcc2d40" : m == 2 ?
		    "b832e048a730cec1fea6ea633bcc2d40" :
		    "b832e048a730cec1fda6ea633bcc2d40");
	}
	check("CFROUND's mode applies to the next FADD_R", ok_use);
	fesetround(FE_UPWARD);
	fprc = 1;
	r.r[1] = 0;
	put(w, I_CFROUND, 0, 1, 0, 0);
	run_words(w, 1, &r, 0, &fprc);
	check("rx_vm_exec_code gives back the caller's rounding mode",
	    fegetround() == FE_UPWARD && fprc == 0);
	fesetround(FE_TONEAREST);
}

/* CBRANCH: tests.cpp's taken / not-taken values, then jump targets. */
static void test_cbranch(void)
{
	uint8_t w[8 * 8];
	rx_regfile r;
	unsigned fprc = 0, n, k;
	uint64_t v, cimm;

	memset(&r, 0, sizeof(r));
	put(w, I_CBRANCH, 0, 0, 48, IMM32);
	run_words(w, 1, &r, 0, &fprc);
	check("CBRANCH not taken: dst + cimm",
	    r.r[0] == 0xffffffffc0cb9ad2ULL);
	/*
	 * Taken with r0 = 0xfffffffffffc6800 (bits 11-18 of the sum are 0),
	 * to instruction 0 as r0 was not modified: r1 += 1 runs twice.
	 */
	put(w, I_ISUB_R, 1, 1, 0, 0xffffffffu);		/* r1 += 1 */
	put(w + 8, I_CBRANCH, 0, 0, 48, IMM32);
	r.r[0] = 0xfffffffffffc6800ULL;
	r.r[1] = 0;
	run_words(w, 2, &r, 0, &fprc);
	/* taken once (to instruction 0: r0 never modified), then not */
	v = 0xfffffffffffc6800ULL + 0xffffffffc0cb9ad2ULL;
	check("CBRANCH taken: back to the start when dst is unmodified",
	    r.r[1] == 2 && r.r[0] == v + 0xffffffffc0cb9ad2ULL);

	/*
	 * The target is after the last instruction that modified dst:
	 *   0: r1 += 1   1: r0 ^= 0 (modifies r0)   2: r2 += 1
	 *   3: FADD_R, ISTORE, IMUL_RCP of 0 (do not modify r0)
	 *   6: CBRANCH r0, b = 8: cimm = 2^8, bit 7 clear; condition bits
	 *      8-15; r0 starts at 0xff00: taken while bits 8-15 of r0 + 256k
	 *      are zero (once).
	 */
	put(w, I_ISUB_R, 1, 1, 0, 0xffffffffu);
	put(w + 8, I_IXOR_R, 0, 0, 0, 0);
	put(w + 16, I_ISUB_R, 2, 2, 0, 0xffffffffu);
	put(w + 24, I_FADD_R, 0, 0, 0, 0);
	put(w + 32, I_ISTORE, 0, 3, 0, 0);
	put(w + 40, I_IMUL_RCP, 0, 0, 0, 0);
	put(w + 48, I_CBRANCH, 0, 0, 0, 0);
	memset(&r, 0, sizeof(r));
	memset(spad, 0, RX_SCRATCHPAD_L2);
	r.r[0] = 0xff00;
	n = rx_program_decode(w, 7, code);
	check("decoded: the IMUL_RCP no-op left out", n == 6 &&
	    code[5].op == RX_OP_CBRANCH && code[5].target == 2);
	rx_vm_exec_code(code, &r, spad, e_mask, 0, &fprc);
	/* work out the jumps from the specification */
	cimm = 1ULL << 8;
	v = 0xff00;
	k = 0;
	for (;;) {
		v += cimm;
		if ((v & 0xff00) != 0)
			break;
		k++;
	}
	check("CBRANCH jumps to after the last modification of dst",
	    r.r[1] == 1 && r.r[2] == 1 + k && r.r[0] == v && k == 1);

	/* ISWAP_R modifies both registers; CBRANCH modifies all */
	put(w, I_ISUB_R, 1, 1, 0, 0xffffffffu);	/* 0: r1 += 1 */
	put(w + 8, I_ISWAP_R, 4, 0, 0, 0);	/* 1: r0 <-> r4 */
	put(w + 16, I_ISUB_R, 2, 2, 0, 0xffffffffu);	/* 2: r2 += 1 */
	put(w + 24, I_CBRANCH, 6, 0, 0, 0);	/* 3: on r6 */
	put(w + 32, I_ISUB_R, 3, 3, 0, 0xffffffffu);	/* 4: r3 += 1 */
	put(w + 40, I_CBRANCH, 0, 0, 0, 0);	/* 5: on r0 */
	rx_program_decode(w, 6, code);
	check("CBRANCH targets: after ISWAP_R for its src, after a CBRANCH",
	    code[3].target == 0 && code[5].target == 4);
	put(w, I_CBRANCH, 4, 0, 0, 0);
	put(w + 8, I_ISWAP_R, 4, 0, 0, 0);
	put(w + 16, I_CBRANCH, 0, 0, 0, 0);
	rx_program_decode(w, 3, code);
	check("CBRANCH target after ISWAP_R for its dst too",
	    code[2].target == 2);
}

/* ---- the vector file: single programs ---- */

static randomx_cache *cache0;		/* "test key 000" */

static void test_program_vector(const char *key_hex, int v2,
    const char *sa_hex, const char *sb_hex, const char *regs_hex,
    const char *sum_hex, unsigned fprc_want)
{
	static rx_vm_state st;
	uint8_t key[64], sa[64], sb[64], regfile[256], sum[32];
	char what[128];
	int i;

	if (from_hex(key_hex, key, sizeof(key)) != 12 ||
	    memcmp(key, "test key 000", 12) || from_hex(sa_hex, sa, 64) != 64 ||
	    from_hex(sb_hex, sb, 64) != 64) {
		check("program vector: malformed or another key", 0);
		return;
	}
	for (i = 0; i < n_impls; i++) {
		memset(&st, 0, sizeof(st));
		st.scratchpad = big2;
		st.cache = rx_cache_state_of(cache0);
		st.aes = impls[i];
		st.v2 = v2;
		from_hex(sa_hex, sa, 64);
		impls[i]->fill1r(sa, big2, RX_SCRATCHPAD_L3);
		st.fprc = 0;
		rx_vm_run_program(&st, sb);
		fesetround(FE_TONEAREST);
		rx_vm_regfile_bytes(&st.regs, regfile);
		blake2b256(sum, big2, RX_SCRATCHPAD_L3);
		snprintf(what, sizeof(what), "one v%d program (%s AES): "
		    "registers, scratchpad, fprc as the reference", v2 + 1,
		    impls[i]->name);
		check(what, equals_hex(regfile, regs_hex) &&
		    equals_hex(sum, sum_hex) && st.fprc == fprc_want);
	}
}
