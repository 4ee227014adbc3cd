#include "ring.h"
//       ^^^^^^^^ reference imports ring.h
#include <stdlib.h>
//       ^^^^^^^^^^ reference imports stdlib.h
#include <string.h>
//       ^^^^^^^^^^ reference imports string.h

static size_t next(const ring_t *r, size_t i) { return (i + 1) % r->cap; }
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function next [5:0-5:74]

/* Allocates an empty ring of `cap` bytes. */
ring_t *ring_new(size_t cap) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function ring_new [8:0-15:1]
    ring_t *r = malloc(sizeof *r);
//              ^^^^^^ reference calls malloc (from ring_new)
    if (!r) return NULL;
    r->data = calloc(cap, 1);
//            ^^^^^^ reference calls calloc (from ring_new)
    r->head = r->tail = 0;
    r->cap = cap;
    return r;
}

int ring_push(ring_t *r, unsigned char byte) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function ring_push [17:0-22:1]
    if (next(r, r->head) == r->tail) return RING_FULL;
//      ^^^^ reference calls next (from ring_push)
    r->data[r->head] = byte;
    r->head = next(r, r->head);
//            ^^^^ reference calls next (from ring_push)
    return RING_OK;
}

void ring_free(ring_t *r) {
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition function ring_free [24:0-28:1]
    void (*release)(void *) = free;
    release(r->data);
//  ^^^^^^^ reference calls release (from ring_free)
    release(r);
//  ^^^^^^^ reference calls release (from ring_free)
}
// ----- travsr snapshot: src/ring.c (c, phase A, status ok) -----
// node file <file> (ring.c)
// skeleton next: "static size_t next(const ring_t *r, size_t i)"
// skeleton ring_free: "void ring_free(ring_t *r)"
// skeleton ring_new: "/* Allocates an empty ring of `cap` bytes. */\nring_t *ring_new(size_t cap)"
// skeleton ring_push: "int ring_push(ring_t *r, unsigned char byte)"
// edge contains <file> -> next (confidence 1, phase-a)
// edge contains <file> -> ring_free (confidence 1, phase-a)
// edge contains <file> -> ring_new (confidence 1, phase-a)
// edge contains <file> -> ring_push (confidence 1, phase-a)
