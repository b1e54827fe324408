/* A table a run wrote (probes.csv, fields.csv) read back for grains plot:
 * its header's names, and each cell as text and as a number (NAN where it
 * is not one, e.g. a probe's name or "all"). The file is untrusted: rows of
 * another width are refused at their line, names and cells are cut to their
 * room, and a header of more than CSV_TABLE_COLS columns, or more than
 * CSV_TABLE_MAX_CELLS cells in all (the table takes 32 bytes a cell), is
 * refused. */
#ifndef GRAINS_IO_CSV_TABLE_H
#define GRAINS_IO_CSV_TABLE_H

#include <stddef.h>

#include "grains/error.h"

enum { CSV_TABLE_COLS = 128, CSV_TABLE_MAX_CELLS = 1 << 24 };

typedef struct {
    int cols;
    char name[CSV_TABLE_COLS][40];
    char (*text)[24]; /* rows * cols, each cell cut to 23 characters */
    double *v;        /* rows * cols */
    size_t rows;
} csv_table;

/* The table at path, a header of 2 columns or more and one row or more; on
 * failure *t holds nothing. */
grains_status csv_table_read(const char *path, csv_table *t, grains_error *err);
void csv_table_free(csv_table *t);
/* The index of the column `name`, or -1. */
int csv_table_column(const csv_table *t, const char *name);
/* The comma-separated cells of a line, the first max of them into out
 * (cut to 39 characters); how many there are. */
int csv_table_cells(const char *line, char out[][40], int max);

#endif
