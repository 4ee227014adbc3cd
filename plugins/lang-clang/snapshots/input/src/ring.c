#include "ring.h"
#include <stdlib.h>
#include <string.h>

static size_t next(const ring_t *r, size_t i) { return (i + 1) % r->cap; }

/* Allocates an empty ring of `cap` bytes. */
ring_t *ring_new(size_t cap) {
    ring_t *r = malloc(sizeof *r);
    if (!r) return NULL;
    r->data = calloc(cap, 1);
    r->head = r->tail = 0;
    r->cap = cap;
    return r;
}

int ring_push(ring_t *r, unsigned char byte) {
    if (next(r, r->head) == r->tail) return RING_FULL;
    r->data[r->head] = byte;
    r->head = next(r, r->head);
    return RING_OK;
}

void ring_free(ring_t *r) {
    void (*release)(void *) = free;
    release(r->data);
    release(r);
}
