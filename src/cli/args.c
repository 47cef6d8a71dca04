/* args.c - the options of the database commands (check, reaudit, ingest,
 * export, backup), read from one table each: every command says an
 * unknown option, a missing value and an operand too many the same way. */
#include <string.h>

#include "cli/cli_int.h"

int cli_parse(const struct cli_args *a, int argc, char **argv, FILE *out,
              FILE *errs)
{
    *a->n_operands = 0;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        const struct cli_opt *o = a->opts;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            a->usage(out);
            return 0;
        }
        if (s[0] != '-' || s[1] == '\0') { /* "-" is stdin: an operand */
            if (*a->n_operands < a->max_operands) {
                a->operands[(*a->n_operands)++] = s;
                continue;
            }
            if (a->max_operands == 0)
                fprintf(errs, "flierd %s: unknown argument '%s'\n", a->cmd,
                        s);
            else
                fprintf(errs, "flierd %s: one %s only ('%s', '%s')\n",
                        a->cmd, a->operand, a->operands[0], s);
            a->usage(errs);
            return 2;
        }
        while (o->name && strcmp(s, o->name) != 0)
            o++;
        if (!o->name) {
            fprintf(errs, "flierd %s: unknown option '%s'\n", a->cmd, s);
            a->usage(errs);
            return 2;
        }
        if (o->flag) {
            *o->flag = true;
        } else if (i + 1 < argc) {
            *o->value = argv[++i];
        } else {
            fprintf(errs, "flierd %s: %s wants a value\n", a->cmd, s);
            return 2;
        }
    }
    if (*a->n_operands < a->min_operands) {
        a->usage(errs);
        return 2;
    }
    return -1;
}
