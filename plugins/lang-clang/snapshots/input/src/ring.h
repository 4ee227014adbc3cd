#ifndef RING_H
#define RING_H

#include <stddef.h>

/* A fixed-size ring buffer of bytes. */
typedef struct ring {
    unsigned char *data;
    size_t head, tail, cap;
} ring_t;

enum ring_status { RING_OK, RING_FULL, RING_EMPTY };

union word { int i; float f; };

#define RING_EMPTY_P(r) ((r)->head == (r)->tail)

ring_t *ring_new(size_t cap);
int ring_push(ring_t *r, unsigned char byte);

#endif
