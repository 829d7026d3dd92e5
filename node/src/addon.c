/*
 * addon.c: the module's entry point.  jobs.c makes the environment's
 * runners; yespower.c and randomx.c add their functions to the
 * exports; index.js wraps them (presets as functions, the shapes other
 * addons have).
 */
#include "util.h"

int nb_init_yespower(napi_env env, napi_value exports);
int nb_init_randomx(napi_env env, napi_value exports);

static napi_value init(napi_env env, napi_value exports)
{
	if (nb_jobs_init(env) || nb_init_yespower(env, exports) || nb_init_randomx(env, exports)) {
		nb_throw_pending(env);
		return NULL;
	}
	return exports;
}

NAPI_MODULE_INIT()
{
	return init(env, exports);
}
