#ifndef RING_H
#define RING_H

#include <stddef.h>
//       ^^^^^^^^^^ reference imports stddef.h

/* A fixed-size ring buffer of bytes. */
typedef struct ring {
//      ^^^^^^^^^^^^^ definition struct ring (to 10:1)
    unsigned char *data;
    size_t head, tail, cap;
} ring_t;
//^^^^^^ definition type ring_t

enum ring_status { RING_OK, RING_FULL, RING_EMPTY };
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition enum ring_status [12:0-12:51]

union word { int i; float f; };
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition struct word [14:0-14:30]

#define RING_EMPTY_P(r) ((r)->head == (r)->tail)
// ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ definition macro RING_EMPTY_P [16:0-17:0]

ring_t *ring_new(size_t cap);
int ring_push(ring_t *r, unsigned char byte);

#endif
// ----- travsr snapshot: src/ring.h (c, phase A, status ok) -----
// node file <file> (ring.h)
// skeleton RING_EMPTY_P: "#define RING_EMPTY_P(r) ((r)->head == (r)->tail)"
// skeleton ring: "struct ring"
// skeleton ring_status: "enum ring_status"
// skeleton ring_t: "ring_t;"
// skeleton word: "union word"
// edge contains <file> -> RING_EMPTY_P (confidence 1, phase-a)
// edge contains <file> -> ring (confidence 1, phase-a)
// edge contains <file> -> ring_status (confidence 1, phase-a)
// edge contains <file> -> ring_t (confidence 1, phase-a)
// edge contains <file> -> word (confidence 1, phase-a)
