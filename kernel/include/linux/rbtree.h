/*
 * linux/rbtree.h - the ordered-tree interface the driver's discovery-table
 * code uses (rb_add, rb_find, rb_first, rb_next).  A plain binary search
 * tree with parent links: the same order and lookups; balancing does not
 * matter for the few dozen units a discovery table describes.
 */
#ifndef UCK_LINUX_RBTREE_H
#define UCK_LINUX_RBTREE_H

#include <linux/kernel.h>

struct rb_node {
	struct rb_node *parent, *left, *right;
};
struct rb_root {
	struct rb_node *rb_node;
};
#define RB_ROOT (struct rb_root){ NULL }
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member) ({ __typeof__(ptr) _p = (ptr); _p ? rb_entry(_p, type, member) : NULL; })

static inline void rb_add(struct rb_node *node, struct rb_root *tree,
			  bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = less(node, parent) ? &parent->left : &parent->right;
	}
	node->parent = parent;
	node->left = node->right = NULL;
	*link = node;
}

static inline struct rb_node *rb_find(const void *key, const struct rb_root *tree,
				      int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *n = tree->rb_node;

	while (n) {
		int c = cmp(key, n);

		if (c < 0)
			n = n->left;
		else if (c > 0)
			n = n->right;
		else
			return n;
	}
	return NULL;
}

static inline struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->left)
		n = n->left;
	return n;
}

static inline struct rb_node *rb_next(const struct rb_node *n)
{
	struct rb_node *p;

	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct rb_node *)n;
	}
	while ((p = n->parent) && n == p->right)
		n = p;
	return p;
}

#define rbtree_postorder_for_each_entry_safe(pos, n, root, field)                \
	for (pos = rb_entry_safe(rb_first_postorder(root), __typeof__(*pos), field); \
	     pos && ({ n = rb_entry_safe(rb_next_postorder(&pos->field), __typeof__(*pos), field); 1; }); \
	     pos = n)

static inline struct rb_node *rb_left_deepest_(const struct rb_node *n)
{
	for (;;) {
		if (n->left)
			n = n->left;
		else if (n->right)
			n = n->right;
		else
			return (struct rb_node *)n;
	}
}

static inline struct rb_node *rb_first_postorder(const struct rb_root *root)
{
	return root->rb_node ? rb_left_deepest_(root->rb_node) : NULL;
}

static inline struct rb_node *rb_next_postorder(const struct rb_node *n)
{
	const struct rb_node *p = n->parent;

	if (p && n == p->left && p->right)
		return rb_left_deepest_(p->right);
	return (struct rb_node *)p;
}

/* removal, as the discovery code clears its tables: unlink a node whose
 * subtrees are re-attached in order */
void rb_erase(struct rb_node *node, struct rb_root *root);

#endif
