/*
 * ucm_platforms.c - the registry of platforms the model knows.  Adding a
 * platform means adding its tables file and one line here.
 */
#include <string.h>
#include <strings.h>

#include "ucm.h"

extern const struct ucm_platform ucm_plat_skl;
extern const struct ucm_platform ucm_plat_snbep;

static const struct ucm_platform *const platforms[] = {
	&ucm_plat_skl,
	&ucm_plat_snbep,
};

const struct ucm_platform *const *ucm_platforms(size_t *n)
{
	*n = sizeof(platforms) / sizeof(platforms[0]);
	return platforms;
}

const struct ucm_platform *ucm_platform_find(const char *name)
{
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++)
		if (strcasecmp(platforms[i]->name, name) == 0)
			return platforms[i];
	return NULL;
}
