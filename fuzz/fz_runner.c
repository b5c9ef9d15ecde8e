/*
 * fz_runner.c - replays fuzz inputs without libFuzzer: every file named,
 * and every file in every directory named, through LLVMFuzzerTestOneInput.
 * Built with any compiler, so CTest replays the committed corpora on every
 * run; a harness that finds a divergence aborts and the test fails.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fprintf(stderr, "%s: read failed\n", path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	size_t files = 0;
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if (S_ISDIR(st.st_mode)) {
			struct dirent **list;
			int n = scandir(argv[i], &list, NULL, alphasort);

			for (int k = 0; k < n; k++) {
				char path[4096];

				if (list[k]->d_name[0] != '.') {
					snprintf(path, sizeof(path), "%s/%s", argv[i], list[k]->d_name);
					bad |= run_file(path);
					files++;
				}
				free(list[k]);
			}
			free(list);
		} else {
			bad |= run_file(argv[i]);
			files++;
		}
	}
	printf("replayed %zu inputs\n", files);
	return bad || !files;
}
