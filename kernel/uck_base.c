/*
 * uck_base.c - the kernel log (printk, WARN, BUG), memory, and the few
 * library routines the driver calls that are not inline in the headers.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/device.h>
#include <linux/rbtree.h>

#include "uck_internal.h"

static char *klog;
static size_t klog_len, klog_cap;
static unsigned nwarn;

static void log_append(const char *s, size_t n)
{
	if (klog_len + n + 1 > klog_cap) {
		size_t cap = klog_cap ? klog_cap * 2 : 4096;
		char *p;

		while (cap < klog_len + n + 1)
			cap *= 2;
		p = realloc(klog, cap);
		if (!p)
			return; /* the log is lost, the kernel goes on */
		klog = p;
		klog_cap = cap;
	}
	memcpy(klog + klog_len, s, n);
	klog_len += n;
	klog[klog_len] = '\0';
}

void uck_printk(int level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int len;

	/* "<4>[   12.000000] ...": the level and the machine time, as dmesg -r */
	len = snprintf(buf, sizeof(buf), "<%d>[%5llu.%06llu] ", level,
		       (unsigned long long)(uck_k.b ? uck_now() / 1000000000u : 0),
		       (unsigned long long)(uck_k.b ? uck_now() / 1000u % 1000000u : 0));
	va_start(ap, fmt);
	len += vsnprintf(buf + len, sizeof(buf) - (size_t)len, fmt, ap);
	va_end(ap);
	if ((size_t)len >= sizeof(buf))
		len = sizeof(buf) - 1;
	log_append(buf, (size_t)len);
	if (len && buf[len - 1] != '\n')
		log_append("\n", 1);
}

void uck_warn(const char *file, int line, const char *cond)
{
	nwarn++;
	uck_printk(4, "WARNING: CPU: %u at %s:%d: %s\n", uck_this_cpu, file, line, cond);
}

void uck_bug(const char *file, int line, const char *cond)
{
	fprintf(stderr, "uncore: kernel BUG at %s:%d: %s\n%s", file, line, cond, klog ? klog : "");
	abort();
}

const char *uck_log(void)
{
	return klog ? klog : "";
}

unsigned uck_warnings(void)
{
	return nwarn;
}

void uck_log_reset(void)
{
	free(klog);
	klog = NULL;
	klog_len = klog_cap = 0;
	nwarn = 0;
}

void *uck_alloc(size_t n, gfp_t flags)
{
	/* never a zero-size allocation: the kernel's kmalloc(0) is a valid
	 * non-NULL token, and so is ours */
	void *p = malloc(n ? n : 1);

	if (p && (flags & __GFP_ZERO))
		memset(p, 0, n ? n : 1);
	return p;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	char *end;

	errno = 0;
	*res = strtoul(s, &end, (int)base);
	if (errno || end == s || (*end && !(*end == '\n' && !end[1])))
		return -EINVAL;
	return 0;
}

/* unlink node: its place taken by its in-order successor when it has two
 * children, else by its one child */
void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *child, **link;

	if (node->left && node->right) {
		struct rb_node *s = node->right;

		while (s->left)
			s = s->left;
		rb_erase(s, root);
		s->left = node->left;
		s->right = node->right;
		s->parent = node->parent;
		if (s->left)
			s->left->parent = s;
		if (s->right)
			s->right->parent = s;
		child = s;
	} else {
		child = node->left ? node->left : node->right;
		if (child)
			child->parent = node->parent;
	}
	if (!node->parent)
		link = &root->rb_node;
	else if (node->parent->left == node)
		link = &node->parent->left;
	else
		link = &node->parent->right;
	*link = child;
}

/* The layer's PCI devices stay for the kernel's lifetime: a bus notifier
 * is kept, and never called. */
int bus_register_notifier(struct bus_type *bus, struct notifier_block *nb)
{
	(void)bus;
	(void)nb;
	return 0;
}

int bus_unregister_notifier(struct bus_type *bus, struct notifier_block *nb)
{
	(void)bus;
	(void)nb;
	return 0;
}
