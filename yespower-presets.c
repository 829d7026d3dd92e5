/*
 * yespower-presets.c: named parameter sets of real chains.
 *
 * Each entry cites where its parameters come from: the coin's own node
 * source where there is one (the function that computes the PoW hash), or
 * the miners that define the algorithm name.  test/vectors/chains.txt holds
 * real headers of these chains, checked by tests-chains against each preset,
 * and doc/chains-research.md the research behind both.  A personalization is
 * used at its exact length, with no trailing NUL.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "yespower.h"

#define PERS(s) (const uint8_t *)(s), sizeof(s) - 1

static const yespower_preset_t presets[] = {
	/* cpuminer-opt algo/yespower/yespower-gate.c (yespower, default);
	 * Smartiecoin's genesis blocks use it (SmartiesCoin/Smartiecoin). */
	{ "yespower", { YESPOWER_1_0, 2048, 32, NULL, 0 }, 0,
	    YESPOWER_HASH_SHA256, "generic yespower 1.0; Smartiecoin" },
	/* Yenten after 2019-03-30: yentencoin/yenten src/primitives/block.cpp. */
	{ "yespowerr16", { YESPOWER_1_0, 4096, 16, NULL, 0 }, 0,
	    YESPOWER_HASH_SHA256, "Yenten (YTN)" },
	/* GlobalBoost-Y: the 80-byte header is its own personalization
	 * (GlobalBoost/GlobalBoost-Y; openwall's tests.c "BSTY"). */
	{ "yescrypt", { YESPOWER_0_5, 2048, 8, NULL, 0 }, 1,
	    YESPOWER_HASH_SHA256, "GlobalBoost-Y (BSTY)" },
	/* BitZeny: BitzenyCoreDevelopers/bitzeny; yescrypt 0.5's default. */
	{ "yescryptr8", { YESPOWER_0_5, 2048, 8, PERS("Client Key") }, 0,
	    YESPOWER_HASH_SHA256, "BitZeny (ZNY)" },
	/* Yenten before 2019-03-30 (yentencoin/yenten); Cryply before its
	 * 2018 fork. */
	{ "yescryptr16", { YESPOWER_0_5, 4096, 16, PERS("Client Key") }, 0,
	    YESPOWER_HASH_SHA256, "Yenten (YTN, before 2019)" },
	/* WaviCoin; cpuminer-opt yespower-gate.c (yescryptr32). */
	{ "yescryptr32", { YESPOWER_0_5, 4096, 32, PERS("WaviBanana") }, 0,
	    YESPOWER_HASH_SHA256, "WaviCoin (WAVI), LuckyPepe (LPEPE)" },
	/* Sugarchain: sugarchain-project/sugarchain src/primitives/block.cpp. */
	{ "yespowersugar", { YESPOWER_1_0, 2048, 32,
	    PERS("Satoshi Nakamoto 31/Oct/2008 Proof-of-work is essentially "
	    "one-CPU-one-vote") }, 0,
	    YESPOWER_HASH_SHA256, "Sugarchain (SUGAR)" },
	/* Tidecoin: tidecoin/tidecoin src/primitives/block.cpp. */
	{ "yespowertide", { YESPOWER_1_0, 2048, 8, NULL, 0 }, 0,
	    YESPOWER_HASH_SHA256, "Tidecoin (TDC)" },
	/* UraniumX: UraniumX/UraniumX (yespower branch). */
	{ "yespowerurx", { YESPOWER_1_0, 2048, 32, PERS("UraniumX") }, 0,
	    YESPOWER_HASH_SHA256, "UraniumX (URX)" },
	/* CPUchain: cpuchain/cpuchain src/primitives/block.cpp. */
	{ "cpupower", { YESPOWER_1_0, 2048, 32,
	    PERS("CPUpower: The number of CPU working or available for "
	    "proof-of-work mining") }, 0,
	    YESPOWER_HASH_SHA256, "CPUchain (CPU)" },
	/* AdventureCoin: AdventureCoin-ADVC/AdventureCoin. */
	{ "yespoweradvc", { YESPOWER_1_0, 2048, 32,
	    PERS("Let the quest begin") }, 0,
	    YESPOWER_HASH_SHA256, "AdventureCoin (ADVC)" },
	/* LightningCash Gold: lightningcashgold/ltncg; also Crionic. */
	{ "yespowerltncg", { YESPOWER_1_0, 2048, 32, PERS("LTNCGYES") }, 0,
	    YESPOWER_HASH_SHA256, "LightningCash Gold (LTNCG)" },
	/* MagpieCoin: mgpc-lab/MagpieCoin; the final period is part of it. */
	{ "yespowermgpc", { YESPOWER_1_0, 2048, 32,
	    PERS("Magpies are birds of the Corvidae family.") }, 0,
	    YESPOWER_HASH_SHA256, "MagpieCoin (MGPC)" },
	/* MicroBitcoin: MicroBitcoinOrg/MicroBitcoin src/crypto/ (BLAKE2b). */
	{ "power2b", { YESPOWER_1_0, 2048, 32,
	    PERS("Now I am become Death, the destroyer of worlds") }, 0,
	    YESPOWER_HASH_BLAKE2B, "MicroBitcoin (MBC)" },
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

const yespower_preset_t *yespower_preset_at(size_t i)
{
	return i < NPRESETS ? &presets[i] : NULL;
}

static int same_name(const char *a, const char *b)
{
	while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b)) {
		a++;
		b++;
	}
	return !*a && !*b;
}

const yespower_preset_t *yespower_preset_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NPRESETS; i++)
		if (same_name(presets[i].name, name))
			return &presets[i];
	errno = EINVAL;
	return NULL;
}

int yespower_preset_hash(const yespower_preset_t *preset,
    const uint8_t *src, size_t srclen, yespower_binary_t *dst)
{
	yespower_params_t params;

	if (!preset) {
		errno = EINVAL;
		if (dst)
			memset(dst, 0xff, sizeof(*dst));
		return -1;
	}
	params = preset->params;
	if (preset->pers_is_input) {
		/* Never NULL: in 0.5 an empty personalization is not none. */
		params.pers = src ? src : (const uint8_t *)"";
		params.perslen = srclen;
	}
	if (preset->hash == YESPOWER_HASH_BLAKE2B)
		return yespower_b2b_tls(src, srclen, &params, dst);
	return yespower_tls(src, srclen, &params, dst);
}
