/*
 * ucm_platforms.c - the registry of platforms the model knows.  The list
 * is generated from the platform folders (model/CMakeLists.txt): adding a
 * platform is adding a folder.
 */
#include <string.h>
#include <strings.h>

#include "ucm.h"

#include "ucm_platform_list.h"

static const struct ucm_platform *const platforms[] = {
	UCM_PLATFORM_LIST
};

const struct ucm_platform *const *ucm_platforms(size_t *n)
{
	*n = sizeof(platforms) / sizeof(platforms[0]);
	return platforms;
}

const struct ucm_platform *ucm_platform_find(const char *name)
{
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++)
		if (strcasecmp(platforms[i]->name, name) == 0 ||
		    (platforms[i]->alias && strcasecmp(platforms[i]->alias, name) == 0))
			return platforms[i];
	return NULL;
}
