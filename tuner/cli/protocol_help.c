/* The kernel protocol in prose, for `tune help protocol` and the manual
 * page: its numbers and names come from kernels/sdk/tune_protocol.h, the
 * definition the tuner and the kernel SDK share. */
#include "../../kernels/sdk/tune_protocol.h"
#include "cli.h"

#define TEXT(x) #x
#define NUMBER(x) TEXT(x)

const char *const tune_protocol_help[] = {
	"the kernel protocol, version " NUMBER(TK_PROTOCOL_VERSION) ": how tune runs a kernel and reads what it measured",
	"",
	"A kernel is a program, built by tune from its manifest (kernel.yaml) or given by it. tune starts",
	"one process per batch of trials that differ only in the list parameter:",
	"",
	"  KERNEL " TK_FLAG_RUNS " R " TK_FLAG_WARMUP " W " TK_FLAG_SEED " S [FLAG VALUE]... [LIST_FLAG V1,V2,...]",
	"",
	"  " TK_FLAG_RUNS " R       measured runs of each list value, 1.." NUMBER(TK_RUNS_MAX),
	"  " TK_FLAG_WARMUP " W     warm-up runs of each value before them, 0.." NUMBER(TK_WARMUP_MAX)
	" (reported, flagged, not counted)",
	"  " TK_FLAG_SEED " S       the seed of the kernel's data: the same seed gives the same checksum",
	"  FLAG VALUE     each run-time parameter with a flag: an integer, a choice's name, on or off; a duration",
	"                 in ns (inf: the largest 64-bit signed integer); cpu_flag, app_cpus_flag and",
	"                 device_cpu_flag: the CPUs tune pins it to (a list joined by commas)",
	"  LIST_FLAG      the list parameter's values (or a variant_field's variants) joined by commas, at most",
	"                 " NUMBER(TK_LIST_MAX) ": measured in this one process, side by side",
	"",
	"Compile-time parameters arrive as -DDEFINE=VALUE (a choice: its index; the variant: variant_define's",
	"index); kernels/sdk/ is on the include path.",
	"",
	"It prints on standard output one JSON object per line, one per run and list value:",
	"",
	"  {\"g\":16,\"" TK_FIELD_RUN "\":0,\"" TK_FIELD_WARMUP "\":false,\"ns_per_probe\":41.2,\"checksum\":1234}",
	"",
	"  LIST           the list parameter's value, under its name in the manifest: an integer, or a choice's name",
	"  " TK_FIELD_RUN "            0, 1, ...: warm-up runs and measured runs each counted from 0",
	"  " TK_FIELD_WARMUP "         true for the W warm-up runs, which come first; false after",
	"  METRIC         the manifest's metric.field: a finite number in metric.range, divided by the fields",
	"                 metric.per names",
	"  CHECK          the manifest's correctness field: an integer, equal for every variant and value",
	"                 (else the trial fails: the variant computes something else)",
	"  " TK_FIELD_CPU "            optional: the CPU the run ended on",
	"  metric.total and metric.rate name further fields when the manifest gives them; every other field",
	"  is kept with the sample (samples.raw_json), for the kernel's views to read.",
	"",
	"The values are interleaved run by run, each run starting one value later (V1 V2 V3, V2 V3 V1, ...),",
	"so that drift hits all alike. Every value in every run, or the batch fails; a line for a value not",
	"asked for fails it too.",
	"",
	"It exits 0 after its last line; " NUMBER(TK_EXIT_USAGE) " for a bad flag, saying which on standard error;",
	"another code when it cannot measure (standard error's tail becomes the trial's reason). A process",
	"past the sweep's timeout_s is killed and its trial fails.",
	"",
	"The kernel SDK, kernels/sdk/tune_kernel.h (header-only C11, also C++), does all of this: a kernel gives",
	"its flags, its setup and one run of a list value (examples/hashprobe/main.c). kernels/sdk/",
	"tune_protocol.h holds the names and numbers above, which tune reads too. A kernel on the SDK says its",
	"protocol version on the last line of its --help. The SDK's sources are part of every kernel's build",
	"hash: a kernel is built again when the SDK changes.",
	NULL,
};
