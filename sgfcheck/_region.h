/* The region game shared by _core.c (which reads the request) and _region.c (which works it
 * out): see _region.c. */
#ifndef SGFCHECK_REGION_H
#define SGFCHECK_REGION_H
#include <Python.h>
#include <stdint.h>

#define RG_MAXK 30    /* points of a region at most (two bits each in 64) */
#define RG_MAXN 160   /* nodes: the region's points and the chains beside them */
#define RG_MAXADJ 1280
#define RG_STILL 0    /* the class of a position where neither colour has a move left */

typedef struct {
    int k, n, cost;
    uint8_t colour[RG_MAXN]; /* the colour of each chain outside (k..n-1) */
    uint8_t free[RG_MAXN];   /* it has a liberty outside the region */
    int adj_off[RG_MAXN + 1];
    int adj[RG_MAXADJ];
    uint8_t wall[RG_MAXK];   /* the colours of the walls beside each point (bits) */
    uint8_t start[RG_MAXK];
    int first_twin[RG_MAXK]; /* the first point of its class of twins, or -1 */
    int n_twins;
    int twin_off[RG_MAXK + 1];
    int twin[RG_MAXK];
    int points[RG_MAXK];     /* the board point of each point of the region */
} RegionSpec;

PyObject *region_game_run(const RegionSpec *r, int32_t limit, int32_t room);

#endif
