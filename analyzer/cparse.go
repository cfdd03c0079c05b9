package analyzer

/*
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// TL_TRIM_NODES is the size, in kept nodes, of a tree after whose parse
// the C allocator hands its free memory back to the system.
#define TL_TRIM_NODES 10000

typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSNode {
  uint32_t context[4];
  const void *id;
  const TSTree *tree;
} TSNode;
typedef struct TSTreeCursor {
  const void *tree;
  const void *id;
  uint32_t context[3];
} TSTreeCursor;

// Declared here, defined by the C sources of github.com/smacker/go-tree-sitter
// and its python grammar, which this package links in.
const TSLanguage *tree_sitter_python(void);
TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
void ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);
void ts_parser_reset(TSParser *self);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_missing(TSNode self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
uint32_t ts_language_field_count(const TSLanguage *self);
const char *ts_language_field_name_for_id(const TSLanguage *self, TSFieldId id);

// tl_node mirrors analyzer.rawNode field for field.
typedef struct {
  uint32_t start, end;
  int32_t parent, first_child, next_sibling;
  uint16_t symbol, field;
  uint8_t named, missing;
  uint16_t spare; // filled on the Go side
} tl_node;

typedef struct {
  tl_node *nodes;
  int32_t len, cap;
  int32_t *last_child;
  int ok;
  // anon_parent[s] is set for the symbols whose anonymous children fill
  // fields the model reads (operators); other anonymous tokens are
  // skipped without looking up their field.
  const uint8_t *anon_parent;
  uint32_t anon_len;
  // leaf_kind[s] is set for symbols whose children the walk skips:
  // string literals, whose parts are never read (f-strings excepted).
  const uint8_t *leaf_kind;
} tl_tree;

static int tl_push(tl_tree *t, TSNode n, TSFieldId field, int32_t parent) {
  if (t->len == t->cap) {
    int32_t cap = t->cap ? t->cap * 2 : 1024;
    tl_node *nodes = realloc(t->nodes, (size_t)cap * sizeof(tl_node));
    int32_t *last = realloc(t->last_child, (size_t)cap * sizeof(int32_t));
    if (!nodes || !last) { if (nodes) t->nodes = nodes; if (last) t->last_child = last; return -1; }
    t->nodes = nodes; t->last_child = last; t->cap = cap;
  }
  int32_t i = t->len++;
  tl_node *r = &t->nodes[i];
  r->start = ts_node_start_byte(n);
  r->end = ts_node_end_byte(n);
  r->parent = parent;
  r->first_child = -1;
  r->next_sibling = -1;
  r->symbol = ts_node_symbol(n);
  r->field = field;
  r->named = ts_node_is_named(n);
  r->missing = ts_node_is_missing(n);
  t->last_child[i] = -1;
  if (parent >= 0) {
    int32_t prev = t->last_child[parent];
    if (prev < 0) t->nodes[parent].first_child = i; else t->nodes[prev].next_sibling = i;
    t->last_child[parent] = i;
  }
  return i;
}

// tl_parse parses src and flattens the tree in pre-order into t, keeping
// named nodes, nodes that fill a field (operators) and missing nodes.
// The tree-sitter tree is freed before returning.
static void tl_parse(TSParser *p, const char *src, uint32_t len, uint64_t timeout, tl_tree *t) {
  t->len = 0; t->ok = 0;
  // A parse that gave up is resumed by the next call unless the parser
  // is reset: always start afresh.
  ts_parser_reset(p);
  ts_parser_set_timeout_micros(p, timeout);
  TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
  if (!tree) return;
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  int32_t parent = -1, cur = -1;
  // kept[d] is the index of the kept ancestor at cursor depth d (or the one above).
  int32_t stack_cap = 256, depth = 0;
  int32_t *stack = malloc(stack_cap * sizeof(int32_t));
  int ok = stack != NULL;
  for (;;) {
    if (!ok) break;
    TSNode n = ts_tree_cursor_current_node(&c);
    cur = parent;
    int keep = ts_node_is_named(n) || ts_node_is_missing(n);
    int want_field = keep;
    if (!keep && parent >= 0) {
      TSSymbol ps = t->nodes[parent].symbol;
      want_field = ps < t->anon_len && t->anon_parent[ps];
    }
    if (want_field) {
      TSFieldId f = ts_tree_cursor_current_field_id(&c);
      if (keep || f != 0) {
        cur = tl_push(t, n, f, parent);
        if (cur < 0) { ok = 0; break; }
      }
    }
    int descend = 1;
    if (keep && t->nodes[cur].symbol < t->anon_len && t->leaf_kind[t->nodes[cur].symbol]) {
      // Skip a plain string's parts; an f-string's expressions are code.
      descend = 0;
      for (uint32_t i = t->nodes[cur].start; i < len && i < t->nodes[cur].start + 3; i++) {
        char ch = src[i];
        if (ch == 'f' || ch == 'F') { descend = 1; break; }
        if (ch == '"' || ch == '\'') break;
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&c)) {
      if (depth == stack_cap) {
        stack_cap *= 2;
        int32_t *s = realloc(stack, stack_cap * sizeof(int32_t));
        if (!s) { ok = 0; break; }
        stack = s;
      }
      stack[depth++] = parent;
      parent = cur;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
      parent = stack[--depth];
    }
  }
done:
  free(stack);
  ts_tree_cursor_delete(&c);
  ts_tree_delete(tree);
  t->ok = ok;
#if defined(__GLIBC__)
  // glibc keeps what a large tree freed in the arena of the thread that
  // parsed it, and the parses run on whatever threads the Go scheduler
  // has: each arena held the memory of the largest tree it had seen.
  // Handing it back after a large parse keeps the peak down.
  if (t->len > TL_TRIM_NODES) malloc_trim(0);
#endif
}

static void tl_free(tl_tree *t) {
  free(t->nodes); free(t->last_child);
  t->nodes = NULL; t->last_child = NULL; t->cap = 0; t->len = 0;
}

*/
import "C"

import (
	"errors"
	"unsafe"

	_ "github.com/smacker/go-tree-sitter"        // tree-sitter runtime, called through C
	_ "github.com/smacker/go-tree-sitter/python" // tree_sitter_python, called through C
)

// rawNode has the layout of tl_node.
type rawNode struct {
	Start, End                      uint32
	Parent, FirstChild, NextSibling int32
	Symbol, Field                   uint16
	Named, Missing                  uint8
	Spare                           uint16
}

// errParseTimeout is returned when tree-sitter gives up on a file.
var errParseTimeout = errors.New("parser gave up (time limit)")

// parser wraps one tree-sitter parser and the C buffer its walks fill,
// reused from file to file; it is not safe for concurrent use.
type parser struct {
	p *C.TSParser
	t *C.tl_tree
}

func newParser() *parser {
	p := C.ts_parser_new()
	C.ts_parser_set_language(p, C.tree_sitter_python())
	t := (*C.tl_tree)(C.calloc(1, C.size_t(unsafe.Sizeof(C.tl_tree{}))))
	t.anon_parent = anonParents
	t.anon_len = C.uint32_t(len(symbolNames))
	t.leaf_kind = leafKinds
	return &parser{p: p, t: t}
}

func (p *parser) close() {
	if p.p != nil {
		C.ts_parser_delete(p.p)
		C.tl_free(p.t)
		C.free(unsafe.Pointer(p.t))
		p.p, p.t = nil, nil
	}
}

// parseFlat parses src and returns its nodes in pre-order, copied into Go
// memory; nothing of tree-sitter outlives the call.
func (p *parser) parseFlat(src []byte, timeoutMicros uint64, dst []rawNode) ([]rawNode, error) {
	var cs *C.char
	if len(src) > 0 {
		cs = (*C.char)(unsafe.Pointer(&src[0]))
	}
	t := p.t
	C.tl_parse(p.p, cs, C.uint32_t(len(src)), C.uint64_t(timeoutMicros), t)
	if t.ok == 0 {
		if t.len == 0 {
			return nil, errParseTimeout
		}
		return nil, errors.New("parser ran out of memory")
	}
	n := int(t.len)
	if n == 0 {
		return dst[:0], nil
	}
	c := unsafe.Slice((*rawNode)(unsafe.Pointer(t.nodes)), n)
	dst = append(dst[:0], c...)
	return dst, nil
}

// language tables, read once.
var (
	symbolNames []string
	fieldNames  []string
	// anonParents marks the symbols whose anonymous children (operators)
	// the walk keeps; it is C memory, shared by every parser's walk.
	anonParents *C.uint8_t
	// leafKinds marks the symbols whose children the walk skips (string
	// literals other than f-strings).
	leafKinds *C.uint8_t
)

func init() {
	loadLanguageTables()
	buildKindTables()
}

// loadLanguageTables reads the grammar's symbol and field names.
func loadLanguageTables() {
	lang := C.tree_sitter_python()
	n := int(C.ts_language_symbol_count(lang))
	symbolNames = make([]string, n)
	for i := 0; i < n; i++ {
		symbolNames[i] = C.GoString(C.ts_language_symbol_name(lang, C.TSSymbol(i)))
	}
	m := int(C.ts_language_field_count(lang))
	fieldNames = make([]string, m+1)
	for i := 1; i <= m; i++ {
		fieldNames[i] = C.GoString(C.ts_language_field_name_for_id(lang, C.TSFieldId(i)))
	}
	anonParents = (*C.uint8_t)(C.calloc(C.size_t(n), 1))
	leafKinds = (*C.uint8_t)(C.calloc(C.size_t(n), 1))
	anon := unsafe.Slice((*uint8)(unsafe.Pointer(anonParents)), n)
	leaf := unsafe.Slice((*uint8)(unsafe.Pointer(leafKinds)), n)
	for i, name := range symbolNames {
		switch name {
		case "binary_operator", "augmented_assignment", "comparison_operator", "boolean_operator",
			"unary_operator", "not_operator":
			anon[i] = 1
		case "string":
			leaf[i] = 1
		}
	}
}
