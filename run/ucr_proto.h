/*
 * ucr_proto.h - the messages between the preload library (libuncore-run.so,
 * inside the tool) and the machine server (`uncore run`, which owns the
 * model).  One SOCK_SEQPACKET connection per thread of the tool; every
 * request gets exactly one reply, so a message never needs framing.
 */
#ifndef UCR_PROTO_H
#define UCR_PROTO_H

#include <stdint.h>

/* Environment the server gives the program (and every process it starts). */
#define UCR_ENV_SOCK "UNCORE_RUN_SOCK"  /* the server's socket */
#define UCR_ENV_ROOT "UNCORE_RUN_ROOT"  /* the machine's /proc, /sys, /dev tree */
#define UCR_ENV_NCPU "UNCORE_RUN_NCPU"  /* logical cpus of the machine */
#define UCR_ENV_CLOCK "UNCORE_RUN_CLOCK" /* "sim" or "wall" */
#define UCR_ENV_LOG "UNCORE_RUN_LOG"    /* set: the library reports what it serves */

enum ucr_op {
	UCR_HELLO = 1,  /* a: pid, b: the task it came from (the thread that
			   forked it, or its parent process), c: 1 when a new
			   image starts (the library's constructor: after exec),
			   2 when a new thread starts (pthread_create; b: its
			   creator, which announced it with UCR_FORK)
			   -> v0: logical cpus, v1: TSC Hz, v2 (c = 1): the
			   cpus the process was bound to before exec (a
			   mask, 0: none) */
	UCR_CPUID,      /* cpu, a: leaf, b: subleaf -> v0..v3: eax, ebx, ecx, edx */
	UCR_MSR_RD,     /* cpu, a: MSR -> v0 */
	UCR_MSR_WR,     /* cpu, a: MSR, b: value */
	UCR_PCI_RD,     /* a: UCR_PCI_ADDR, b: offset, c: width -> v0 */
	UCR_PCI_WR,     /* a: UCR_PCI_ADDR, b: offset | width << 32, c: value */
	UCR_MMIO_RD,    /* a: physical address, c: width -> v0 */
	UCR_MMIO_WR,    /* a: physical address, b: value, c: width */
	UCR_TIME,       /* a: clockid -> v0: ns */
	UCR_SLEEP,      /* a: ns to wait, relative -> v0: CLOCK_MONOTONIC after,
			   v1: ns left; answered when machine time reaches the
			   deadline, or -EINTR at once after a UCR_WAKE */
	UCR_TSC,        /* cpu -> v0: TSC, v1: TSC_AUX (rdtscp's ecx) */
	UCR_REPORT,     /* write the ground-truth report now */
	UCR_WAKE,       /* a signal interrupted this thread's sleep: end it */
	UCR_FORK,       /* this process is about to fork, or this thread to
			   create one: the new task holds time until its hello */
	UCR_BLOCK,      /* a: 1: this thread waits in the kernel for another
			   (waitpid, pthread_join) until a: 0; it holds no time */
	UCR_AFFINITY,   /* b 0: a: the cpus this process's thread is bound to
			   (a mask of the machine's cpus): kept across exec;
			   b 1: -> v0: the binding of process a (0: none known) */
	/* perf_event_open(2) and its descriptors, served by Linux's driver
	 * (run/ucr_kernel.c); a descriptor is named by its handle */
	UCR_PERF_OPEN,  /* a: pid | cpu << 32 (each 32 bits, signed), b: group
			   handle or -1, c: flags;
			   payload: the attribute as the program gave it (its
			   size bytes, at most UCR_PERF_ATTR_MAX) -> v0: handle;
			   -E2BIG: v1 the attribute size this kernel knows */
	UCR_PERF_READ,  /* a: handle, b: buffer size -> v0: bytes, data */
	UCR_PERF_IOCTL, /* a: handle, b: request, c: argument -> v0: an ID */
	UCR_PERF_CLOSE, /* a: handle */
	/* a timer of the process on the machine's clock (run/ucr_timer.h):
	 * c: the timer (bits 31:0: 0 ITIMER_REAL, else the kernel's timer
	 * ID + 1) | the operation << 32 (enum ucr_timer_op) */
	UCR_TIMER,
	UCR_UNREACHED,  /* payload: the path of a program this process was
			   about to exec that the library cannot reach (a
			   statically linked one): the exec is refused, the
			   run fails */
	UCR_NOPS
};

enum ucr_timer_op {
	UCR_TIMER_CREATE,  /* a: sigev_value, b: signal | notify << 8 | thread
			      ID << 32 (notify: UCR_TIMER_NOTIFY_*) */
	UCR_TIMER_SET,     /* a: ns to the expiry (0: disarm), b: interval ns
			      -> v0, v1: the old ns left and interval */
	UCR_TIMER_GET,     /* -> v0, v1: ns left (0: disarmed), interval */
	UCR_TIMER_OVERRUN, /* -> v0: the last expiry's overrun count */
	UCR_TIMER_DELETE,
};
#define UCR_TIMER_NOTIFY_PROCESS 0  /* the signal to the process */
#define UCR_TIMER_NOTIFY_THREAD 1   /* to one thread (SIGEV_THREAD_ID) */
#define UCR_TIMER_NOTIFY_NONE 2     /* none (SIGEV_NONE) */

#define UCR_PCI_ADDR(seg, bus, dev, fn) \
	((uint64_t)(seg) << 16 | (uint64_t)(bus) << 8 | (uint64_t)(dev) << 3 | (uint64_t)(fn))

struct ucr_req {
	uint32_t op, cpu;  /* cpu: the one the request is for (an MSR's) */
	uint64_t a, b, c;
	int32_t pid, tid;  /* who asks: the server watches whether it runs */
	uint32_t vcpu;     /* the cpu the asking thread is on */
	int32_t ptid;      /* the thread that created it (pthread_create), 0:
			      unknown: where its per-task perf events come from */
};

struct ucr_rsp {
	int32_t rc;        /* 0 or a negative errno */
	uint32_t flags;    /* UCR_RSP_REFUSED: the server took the connection
			      only to refuse it (its descriptors ran out);
			      msg says why, and nothing more comes */
	uint64_t v[4];
	char msg[200];     /* with rc: what went wrong */
};

#define UCR_RSP_REFUSED 1u

/* The longest payloads: a perf attribute (perf_event_attr is 136 bytes in
 * Linux 6.1; a newer tool's longer one must have zeros past that), and
 * what read(2) of a perf descriptor returns (a group's counts). */
#define UCR_PERF_ATTR_MAX 512
#define UCR_PERF_DATA_MAX 4096

struct ucr_req_data {
	struct ucr_req h;
	uint8_t data[UCR_PERF_ATTR_MAX];
};

struct ucr_rsp_data {
	struct ucr_rsp h;
	uint8_t data[UCR_PERF_DATA_MAX];
};

/* The firmware area of /dev/mem: the legacy BIOS area E0000-FFFFF that
 * biosdecode scans (dmidecode --no-sysfs: F0000-FFFFF), holding the SMBIOS
 * entry point at F0000 and its structure table after it
 * (run/ucr_smbios.c).  The tree's ROOT/.firmware is its image, served by
 * read, pread and mmap; the rest of it reads as zeros. */
#define UCR_FW_BASE 0xE0000u
#define UCR_FW_LEN 0x20000u
#define UCR_FW_EP 0xF0000u
#define UCR_FW_TABLE 0xF0020u
#define UCR_FW_FILE ".firmware"

#endif
