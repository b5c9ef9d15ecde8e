/*
 * ucr_preload.h - pieces of the preload library (libuncore-run.so) shared
 * by its files: the connection to the machine server, messages, and the
 * instruction traps (ucr_trap.c).
 */
#ifndef UCR_PRELOAD_H
#define UCR_PRELOAD_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Requests to the machine server; 0 or a negative errno (message in
 * ucr_last_error()). */
int ucr_cpuid(uint32_t leaf, uint32_t sub, uint64_t r[4]);
int ucr_tsc(uint64_t *tsc, uint64_t *aux);
int ucr_mmio_read(uint64_t pa, unsigned width, uint64_t *v);
int ucr_mmio_write(uint64_t pa, unsigned width, uint64_t v);
const char *ucr_last_error(void);

/* Messages to the tool's stderr: ucr_log only with UNCORE_RUN_LOG set;
 * ucr_die ends the process (the machine cannot go on). */
void ucr_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void ucr_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int ucr_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

void ucr_trap_init(void);
/* Rewrite the objects loaded since the last scan (after dlopen). */
void ucr_trap_scan(void);
/* /dev/mem mappings: an inaccessible range whose accesses the SIGSEGV
 * handler serves from the machine at physical address pa. */
void *ucr_trap_map(size_t len, uint64_t pa);
int ucr_trap_unmap(void *p, size_t len);
/* 0: handled (the machine's handler stays); 1: not SIGILL/SIGSEGV. */
int ucr_trap_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

#endif
