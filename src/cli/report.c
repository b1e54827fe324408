/* The command's one way to say what went wrong: "grains: file:line: message". */
#include "cli/cli.h"

void cli_report(const grains_error *err)
{
    char msg[2048];
    grains_error_format(err, msg, sizeof msg);
    fprintf(stderr, "grains: %s\n", msg);
}
