/* main.c - flierd: record, replay and audit Carcassonne games played with
 * The Flier. Dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *f)
{
    fputs("usage: flierd <command> [options]\n"
          "commands:\n"
          "  audit FILE...   replay game logs and report every violation\n"
          "  whatif FILE     the same game with another roll at one flight\n"
          "  convert FILE    a game log as flierlog or .jcz (--to FORMAT)\n"
          "  serve           the HTTP daemon: JSON API, uploads, live games\n"
          "  ingest FILE...  store game logs in the database\n"
          "  reaudit         audit every stored game again\n"
          "  check           check that the database is whole\n"
          "  backup OUT      a consistent copy of the database, while serving\n"
          "  export OUT      every stored upload as its file, and an index\n"
          "  copy            every game of one database into another\n"
          "  simulate        random legal (or forged) games, one file each\n"
          "  version         print the version\n"
          "Run 'flierd <command> --help' for a command's options.\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "audit") == 0)
        return cli_audit(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "whatif") == 0)
        return cli_whatif(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "convert") == 0)
        return cli_convert(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "serve") == 0)
        return cli_serve(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "ingest") == 0)
        return cli_ingest(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "simulate") == 0)
        return cli_simulate(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "reaudit") == 0)
        return cli_reaudit(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "check") == 0)
        return cli_check(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "backup") == 0)
        return cli_backup(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "export") == 0)
        return cli_export(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "copy") == 0)
        return cli_copy(argc - 2, argv + 2, stdout, stderr);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("flierd %s\n", FLIERD_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "flierd: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
