/* tiles.c - our tile tables for the base game (C2 "basic:1", C3 "basic:2")
 * and The Flier ("flier:1", "flier:2"). Geometry follows the published
 * tiles; ids follow JCloisterZone so that its saves map one to one. */
#include "core/tiles.h"

#include <string.h>

#define N EDGE_N
#define E EDGE_E
#define S EDGE_S
#define W EDGE_W
#define NL HE_NL
#define NR HE_NR
#define EL HE_EL
#define ER HE_ER
#define SL HE_SL
#define SR HE_SR
#define WL HE_WL
#define WR HE_WR

#define ROAD(m) { FEAT_ROAD, (m), 0, 0 }
#define CITY(m) { FEAT_CITY, (m), 0, 0 }
#define CITYP(m) { FEAT_CITY, (m), 1, 0 }
#define FIELD(m, c) { FEAT_FIELD, (m), 0, (c) }
#define CLOISTER { FEAT_MONASTERY, 0, 0, 0 }
#define GARDEN { FEAT_GARDEN, 0, 0, 0 }
#define FLIER { FEAT_FLIER, 0, 0, 0 }
#define ALL_HALVES (NL | NR | EL | ER | SL | SR | WL | WR)

#define T(id_, dir_, ...)                                                  \
    { id_, dir_,                                                          \
      (uint8_t)(sizeof((struct seg_def[]){ __VA_ARGS__ }) /               \
                sizeof(struct seg_def)),                                  \
      { __VA_ARGS__ } }

/* Sorted by id (byte order): that is JCloisterZone's pack order, which
 * game_pack_draw() follows; test_tiles checks the order. */
static const struct tile_def tiles[] = {
    T("BA/C", NO_FLIER, CITY(N), FIELD(WL | WR | SL | SR | EL | ER, N)),
    T("BA/CC.2", NO_FLIER, CITY(N), CITY(W),
      FIELD(EL | ER | SL | SR, N | W)),
    T("BA/CCG", NO_FLIER, GARDEN, CITY(N), CITY(W),
      FIELD(EL | ER | SL | SR, N | W)),
    T("BA/CFC.2", NO_FLIER, CITY(N), CITY(S),
      FIELD(WL | WR | EL | ER, N | S)),
    T("BA/CFCG", NO_FLIER, GARDEN, CITY(N), CITY(S),
      FIELD(WL | WR | EL | ER, N | S)),
    T("BA/CFc+", NO_FLIER, CITYP(W | E), FIELD(NL | NR, W),
      FIELD(SL | SR, W)),
    T("BA/CFc.1", NO_FLIER, CITY(W | E), FIELD(NL | NR, W),
      FIELD(SL | SR, W)),
    T("BA/CG", NO_FLIER, GARDEN, CITY(N),
      FIELD(WL | WR | SL | SR | EL | ER, N)),
    T("BA/CRRR", NO_FLIER, ROAD(E), ROAD(S), ROAD(W), CITY(N),
      FIELD(WR | EL, N), FIELD(WL | SR, 0), FIELD(ER | SL, 0)),
    T("BA/CRr", NO_FLIER, ROAD(E | S), CITY(N), FIELD(EL | WL | WR | SR, N),
      FIELD(ER | SL, 0)),
    T("BA/Cc+", NO_FLIER, CITYP(N | W), FIELD(SL | SR | EL | ER, N)),
    T("BA/Cc+G", NO_FLIER, GARDEN, CITYP(N | W),
      FIELD(SL | SR | EL | ER, N)),
    T("BA/Cc.1", NO_FLIER, CITY(N | W), FIELD(SL | SR | EL | ER, N)),
    T("BA/CcG", NO_FLIER, GARDEN, CITY(N | W), FIELD(SL | SR | EL | ER, N)),
    T("BA/CcRr", NO_FLIER, ROAD(E | S), CITY(N | W), FIELD(EL | SR, N),
      FIELD(ER | SL, 0)),
    T("BA/CcRr+", NO_FLIER, ROAD(E | S), CITYP(N | W), FIELD(EL | SR, N),
      FIELD(ER | SL, 0)),
    T("BA/Ccc", NO_FLIER, CITY(N | E | W), FIELD(SL | SR, N)),
    T("BA/Ccc+", NO_FLIER, CITYP(N | E | W), FIELD(SL | SR, N)),
    T("BA/CccG", NO_FLIER, GARDEN, CITY(N | E | W), FIELD(SL | SR, N)),
    T("BA/CccR", NO_FLIER, ROAD(S), CITY(N | W | E), FIELD(SL, N),
      FIELD(SR, N)),
    T("BA/CccR+", NO_FLIER, ROAD(S), CITYP(N | W | E), FIELD(SL, N),
      FIELD(SR, N)),
    T("BA/Cccc+", NO_FLIER, CITYP(N | E | S | W)),
    T("BA/L", NO_FLIER, CLOISTER, FIELD(ALL_HALVES, 0)),
    T("BA/LR", NO_FLIER, CLOISTER, ROAD(S), FIELD(ALL_HALVES, 0)),
    T("BA/RCr", NO_FLIER, ROAD(W | E), CITY(N), FIELD(EL | WR, N),
      FIELD(ER | SL | SR | WL, 0)),
    T("BA/RFr", NO_FLIER, ROAD(W | E), FIELD(WR | NL | NR | EL, 0),
      FIELD(ER | SL | SR | WL, 0)),
    T("BA/RFrG", NO_FLIER, GARDEN, ROAD(W | E), FIELD(WR | NL | NR | EL, 0),
      FIELD(ER | SL | SR | WL, 0)),
    T("BA/RRR", NO_FLIER, ROAD(E), ROAD(S), ROAD(W),
      FIELD(WR | NL | NR | EL, 0), FIELD(ER | SL, 0), FIELD(SR | WL, 0)),
    T("BA/RRRR", NO_FLIER, ROAD(N), ROAD(E), ROAD(S), ROAD(W),
      FIELD(WR | NL, 0), FIELD(NR | EL, 0), FIELD(ER | SL, 0),
      FIELD(SR | WL, 0)),
    T("BA/Rr", NO_FLIER, ROAD(W | S), FIELD(WR | NL | NR | EL | ER | SL, 0),
      FIELD(SR | WL, 0)),
    T("BA/RrC", NO_FLIER, ROAD(S | W), CITY(N), FIELD(WR | EL | ER | SL, N),
      FIELD(WL | SR, 0)),
    T("BA/RrG", NO_FLIER, GARDEN, ROAD(W | S),
      FIELD(WR | NL | NR | EL | ER | SL, 0), FIELD(SR | WL, 0)),
    T("FL/F.d", DIR_NW, FLIER, FIELD(ALL_HALVES, 0)),
    T("FL/F.dG", DIR_NW, GARDEN, FLIER, FIELD(ALL_HALVES, 0)),
    T("FL/F.o", DIR_W, FLIER, FIELD(ALL_HALVES, 0)),
    T("FL/RFr.NS.o", DIR_W, FLIER, ROAD(N | S), FIELD(SR | WL | WR | NL, 0),
      FIELD(NR | EL | ER | SL, 0)),
    T("FL/RFr.WE.o", DIR_W, FLIER, ROAD(W | E), FIELD(WR | NL | NR | EL, 0),
      FIELD(ER | SL | SR | WL, 0)),
    T("FL/RFr.d", DIR_NW, FLIER, ROAD(W | E), FIELD(WR | NL | NR | EL, 0),
      FIELD(ER | SL | SR | WL, 0)),
    T("FL/Rr.NW.o", DIR_W, FLIER, ROAD(N | W), FIELD(WR | NL, 0),
      FIELD(NR | EL | ER | SL | SR | WL, 0)),
    T("FL/Rr.SW.o", DIR_W, FLIER, ROAD(S | W), FIELD(SR | WL, 0),
      FIELD(WR | NL | NR | EL | ER | SL, 0)),
    T("FL/Rr.d", DIR_NW, FLIER, ROAD(S | E),
      FIELD(SR | WL | WR | NL | NR | EL, 0), FIELD(ER | SL, 0)),
};

#define NTILES ((int)(sizeof tiles / sizeof tiles[0]))

/* The index of each tile in tiles[], for the sets below (test_tiles
 * checks that every set's refs agree with tile_find()). */
enum {
    TI_BA_C, TI_BA_CC_2, TI_BA_CCG, TI_BA_CFC_2, TI_BA_CFCG, TI_BA_CFcp,
    TI_BA_CFc_1, TI_BA_CG, TI_BA_CRRR, TI_BA_CRr, TI_BA_Ccp, TI_BA_CcpG,
    TI_BA_Cc_1, TI_BA_CcG, TI_BA_CcRr, TI_BA_CcRrp, TI_BA_Ccc, TI_BA_Cccp,
    TI_BA_CccG, TI_BA_CccR, TI_BA_CccRp, TI_BA_Ccccp, TI_BA_L, TI_BA_LR,
    TI_BA_RCr, TI_BA_RFr, TI_BA_RFrG, TI_BA_RRR, TI_BA_RRRR, TI_BA_Rr,
    TI_BA_RrC, TI_BA_RrG, TI_FL_F_d, TI_FL_F_dG, TI_FL_F_o, TI_FL_RFr_NS_o,
    TI_FL_RFr_WE_o, TI_FL_RFr_d, TI_FL_Rr_NW_o, TI_FL_Rr_SW_o, TI_FL_Rr_d,
};

/* Both base packs hold 72 tiles including the start tile (BA/RCr). */
static const struct set_ref basic1[] = {
    { "BA/L", 4, TI_BA_L },          { "BA/LR", 2, TI_BA_LR },
    { "BA/RCr", 4, TI_BA_RCr },      { "BA/Cccc+", 1, TI_BA_Ccccp },
    { "BA/CccR+", 2, TI_BA_CccRp },  { "BA/CccR", 1, TI_BA_CccR },
    { "BA/CFc+", 2, TI_BA_CFcp },    { "BA/CFc.1", 1, TI_BA_CFc_1 },
    { "BA/Cc.1", 3, TI_BA_Cc_1 },    { "BA/Cc+", 2, TI_BA_Ccp },
    { "BA/CcRr", 3, TI_BA_CcRr },    { "BA/CcRr+", 2, TI_BA_CcRrp },
    { "BA/Ccc", 3, TI_BA_Ccc },      { "BA/Ccc+", 1, TI_BA_Cccp },
    { "BA/CRr", 3, TI_BA_CRr },      { "BA/CRRR", 3, TI_BA_CRRR },
    { "BA/RrC", 3, TI_BA_RrC },      { "BA/C", 5, TI_BA_C },
    { "BA/CFC.2", 3, TI_BA_CFC_2 },  { "BA/CC.2", 2, TI_BA_CC_2 },
    { "BA/RRRR", 1, TI_BA_RRRR },    { "BA/RRR", 4, TI_BA_RRR },
    { "BA/Rr", 9, TI_BA_Rr },        { "BA/RFr", 8, TI_BA_RFr },
};

/* C3 swaps one copy of eight tiles for the same tile with a garden. */
static const struct set_ref basic2[] = {
    { "BA/L", 4, TI_BA_L },          { "BA/LR", 2, TI_BA_LR },
    { "BA/RCr", 4, TI_BA_RCr },      { "BA/Cccc+", 1, TI_BA_Ccccp },
    { "BA/CccR+", 2, TI_BA_CccRp },  { "BA/CccR", 1, TI_BA_CccR },
    { "BA/CFc+", 2, TI_BA_CFcp },    { "BA/CFc.1", 1, TI_BA_CFc_1 },
    { "BA/Cc.1", 2, TI_BA_Cc_1 },    { "BA/CcG", 1, TI_BA_CcG },
    { "BA/Cc+", 1, TI_BA_Ccp },      { "BA/Cc+G", 1, TI_BA_CcpG },
    { "BA/CcRr", 3, TI_BA_CcRr },    { "BA/CcRr+", 2, TI_BA_CcRrp },
    { "BA/Ccc", 2, TI_BA_Ccc },      { "BA/CccG", 1, TI_BA_CccG },
    { "BA/Ccc+", 1, TI_BA_Cccp },    { "BA/CRr", 3, TI_BA_CRr },
    { "BA/CRRR", 3, TI_BA_CRRR },    { "BA/RrC", 3, TI_BA_RrC },
    { "BA/C", 4, TI_BA_C },          { "BA/CG", 1, TI_BA_CG },
    { "BA/CFC.2", 2, TI_BA_CFC_2 },  { "BA/CFCG", 1, TI_BA_CFCG },
    { "BA/CC.2", 1, TI_BA_CC_2 },    { "BA/CCG", 1, TI_BA_CCG },
    { "BA/RRRR", 1, TI_BA_RRRR },    { "BA/RRR", 4, TI_BA_RRR },
    { "BA/Rr", 8, TI_BA_Rr },        { "BA/RrG", 1, TI_BA_RrG },
    { "BA/RFr", 7, TI_BA_RFr },      { "BA/RFrG", 1, TI_BA_RFrG },
};

static const struct set_ref flier1[] = {
    { "FL/F.d", 1, TI_FL_F_d },            { "FL/F.o", 1, TI_FL_F_o },
    { "FL/RFr.d", 1, TI_FL_RFr_d },        { "FL/RFr.NS.o", 1, TI_FL_RFr_NS_o },
    { "FL/RFr.WE.o", 1, TI_FL_RFr_WE_o },  { "FL/Rr.d", 1, TI_FL_Rr_d },
    { "FL/Rr.NW.o", 1, TI_FL_Rr_NW_o },    { "FL/Rr.SW.o", 1, TI_FL_Rr_SW_o },
};

static const struct set_ref flier2[] = {
    { "FL/F.dG", 1, TI_FL_F_dG },          { "FL/F.o", 1, TI_FL_F_o },
    { "FL/RFr.d", 1, TI_FL_RFr_d },        { "FL/RFr.NS.o", 1, TI_FL_RFr_NS_o },
    { "FL/RFr.WE.o", 1, TI_FL_RFr_WE_o },  { "FL/Rr.d", 1, TI_FL_Rr_d },
    { "FL/Rr.NW.o", 1, TI_FL_Rr_NW_o },    { "FL/Rr.SW.o", 1, TI_FL_Rr_SW_o },
};

#define REFS(a) (uint8_t)(sizeof a / sizeof a[0]), a

static const struct tile_set_def sets[] = {
    { "basic:1", REFS(basic1) },
    { "basic:2", REFS(basic2) },
    { "flier:1", REFS(flier1) },
    { "flier:2", REFS(flier2) },
};

#define NSETS ((int)(sizeof sets / sizeof sets[0]))

int tile_count(void) { return NTILES; }

const struct tile_def *tile_get(int idx)
{
    return idx >= 0 && idx < NTILES ? &tiles[idx] : NULL;
}

int tile_find(const char *id)
{
    int lo = 0, hi = NTILES - 1;
    while (lo <= hi) { /* the table is sorted by id */
        int mid = (lo + hi) / 2, c = strcmp(tiles[mid].id, id);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int tile_set_count(void) { return NSETS; }

const struct tile_set_def *tile_set_get(int idx)
{
    return idx >= 0 && idx < NSETS ? &sets[idx] : NULL;
}

int tile_set_find(const char *id)
{
    for (int i = 0; i < NSETS; i++)
        if (strcmp(sets[i].id, id) == 0)
            return i;
    return -1;
}

uint8_t rot_edges(uint8_t mask, int rot)
{
    rot &= 3;
    return (uint8_t)(((mask << rot) | (mask >> (4 - rot))) & 0xF);
}

uint8_t rot_halves(uint8_t mask, int rot)
{
    int s = 2 * (rot & 3);
    return (uint8_t)((mask << s) | (mask >> ((8 - s) & 7)));
}

enum feat tile_edge(const struct tile_def *t, int rot, int side)
{
    /* side in board frame -> side in tile frame */
    uint8_t bit = (uint8_t)(1u << ((side - rot + 8) & 3));
    enum feat k = FEAT_FIELD;
    for (int i = 0; i < t->n_seg; i++) {
        const struct seg_def *s = &t->seg[i];
        if (s->kind == FEAT_CITY && (s->mask & bit))
            return FEAT_CITY;
        if (s->kind == FEAT_ROAD && (s->mask & bit))
            k = FEAT_ROAD;
    }
    return k;
}

const char *feat_name(enum feat f)
{
    static const char *const names[FEAT__COUNT] = {
        "none", "road", "city", "field", "monastery", "garden", "flier"
    };
    return (unsigned)f < FEAT__COUNT ? names[f] : "none";
}

const char *dir_name(int d)
{
    static const char *const names[8] = { "N", "NE", "E", "SE",
                                          "S", "SW", "W", "NW" };
    return names[d & 7];
}
