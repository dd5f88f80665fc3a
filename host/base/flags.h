/* SPDX-License-Identifier: MIT */
/* flags.h -- the one flag engine every verb parses its words with.
 *
 * A verb's flags are a table (struct flagdef[]) in the verb's own file (or
 * its room's args file): each flag's name, its kind, the verbs that accept
 * it, its owner, where its value lands in the verb's own struct (offsetof)
 * and its help line.  The verb describes how it reads its words once
 * (struct flagspec: which table, which verb it is, its reason tokens, its
 * remedy, its options) and calls flags_parse.  The engine walks argv in
 * order and collects every problem into a struct refusals, in argv order,
 * with the verb's tokens; it never prints.
 *
 * Adding a verb is: a struct holding its values, a table, a spec, and
 *
 *	struct myargs a = {0};
 *	static const struct flagdef myflags[] = {
 *		{ "json", FK_SWITCH, 1, 0, NULL, offsetof(struct myargs, json),
 *		  "print JSON" },
 *	};
 *	struct flagspec s = { .defs = myflags, .ndefs = 1, .verb = 1,
 *		.remedy = "nova-sandbox help mine", .tok_unknown = "bad_flag",
 *		.tok_positional = "bad_flag", .tok_value = "no_command",
 *		.remedy_on = FR_UNKNOWN | FR_POSITIONAL };
 *	rc = flags_parse(&s, argc - 1, argv + 1, &a, &r);
 *
 * What a word is:
 *   "--"            with FO_DASHDASH: the end of the flags; every later word
 *                   goes to the struct strv at argv_off and the int at
 *                   saw_off is set.  Without it: an unknown flag "--".
 *   -x, --x, --x=v  a flag word ("-" alone only with FO_LONE_DASH); the
 *                   name ends at the first '=' (unless FO_NO_EQ) and is
 *                   looked up in the whole table.
 *   anything else   positional: "unexpected argument <w>".
 *
 * The kinds: FK_SWITCH sets an int to 1, or to the boolean of "=v" (Go's
 * strconv.ParseBool; "true"/"1" with FO_LAX_BOOL, anything else 0);
 * FK_VALUE stores a const char * (the "=v" or the next word), the last one
 * given wins (FO_ONCE: a second one is refused); FK_LIST pushes onto a
 * struct strv.  A value flag with no value left: "--<f> wants a value".
 *
 * A flag of the table the verb does not accept (its bit not in verbs) is
 * handled as `foreign` says: FF_COLLECT takes its value and records
 * "--<name>" once in the struct strv at others_off (the verb refuses or
 * notes it later, see flags_refuse_others); FF_REFUSE takes its value and
 * refuses "--<f> is not a flag of <verbname>; it is <owner>'s"; FF_UNKNOWN
 * refuses the same text at once, without "it is", with the list of flags,
 * like an unknown flag (and skips its value as FO_SKIP_VALUE says).
 *
 * An unknown flag: "unknown flag <word up to '='>" (FO_SHOW_LONG: always
 * "--<name>"), then "; <list_lead> --a, --b" when list_lead is set, then
 * "; did you mean --<near>?" as `near` says, then the remedy.
 *
 * A problem with a value (missing, not a boolean, given twice, or one the
 * `check` refuses) ends "; run: <the caller's line fixed>" when `line`
 * is set (base/remedy.h): the form in place of a missing value (the
 * flag's back-quoted help word as <word>, else <value>), <true|false> in
 * place of a switch's bad "=v", the repeated flag left out. */
#ifndef NS_HOST_FLAGS_H
#define NS_HOST_FLAGS_H

#include <stddef.h>

#include "base/remedy.h"
#include "base/util.h"

enum flag_kind { FK_SWITCH, FK_VALUE, FK_LIST };

struct flagdef {
	const char *name;  /* without dashes: "read-noexec" */
	enum flag_kind kind;
	unsigned verbs;    /* the bits of the verbs that accept it */
	unsigned ignored;  /* the bits of the verbs that note it, unused */
	const char *owner; /* who owns it, for "is not a flag of <verb>" */
	size_t off;        /* where it lands in the verb's struct */
	const char *help;  /* one line; the back-quoted word is the kind */
};

/* How a foreign flag (in the table, not the verb's) is handled. */
enum flag_foreign { FF_COLLECT, FF_REFUSE, FF_UNKNOWN };

/* Which flag an unknown one is said to be nearest to. */
enum flag_near {
	FN_NONE,        /* no suggestion */
	FN_EDIT,        /* edit distance below 3 and below the name's length */
	FN_EDIT_PREFIX, /* that, else the first flag the name (3+) begins */
	FN_FIRST,       /* always the first listed flag */
};

/* Where a single-dash flag (-x) is accepted. */
enum flag_single { FS_ALL, FS_SWITCH, FS_NONE };

/* opts */
#define FO_DASHDASH 0x01u       /* "--" ends the flags (argv_off, saw_off) */
#define FO_VALUE_NOT_DD 0x02u   /* "--" is never taken as a value */
#define FO_SKIP_VALUE 0x04u     /* an unknown flag without "=" takes the
				 * next word with it unless it begins '-' */
#define FO_LONE_DASH 0x08u      /* "-" alone is a flag word, not positional */
#define FO_NO_EQ 0x10u          /* no "--x=v" form: '=' is part of the name */
#define FO_LAX_BOOL 0x20u       /* a switch's "=v": true/1 on, else off */
#define FO_ONCE 0x40u           /* a value flag given twice is refused */
#define FO_SHOW_LONG 0x80u      /* unknown flags are shown as --<name> */

/* remedy_on: the problems whose text ends "; run: <remedy>" */
#define FR_UNKNOWN 0x1u     /* unknown flag (and FF_UNKNOWN foreign ones) */
#define FR_POSITIONAL 0x2u  /* unexpected argument */
#define FR_BOOL 0x4u        /* a switch's value is not a boolean */
#define FR_FOREIGN 0x8u     /* FF_REFUSE and flags_refuse_others */

struct flagspec;

/* A check of a value before it is stored: 0 keep it, 1 refused (a
 * refusal added to r), -1 out of memory. */
typedef int (*flag_check_fn)(const struct flagspec *s,
			     const struct flagdef *f, const char *v,
			     struct refusals *r);

struct flagspec {
	const struct flagdef *defs;
	size_t ndefs;
	unsigned verb;          /* this verb's bit in defs[].verbs */
	unsigned lists;         /* the bits whose flags are listed and
				 * suggested; 0: verb */
	const char *verbname;   /* "probe", "egress plan" */
	const char *remedy;     /* "nova-sandbox help probe" */
	const char *list_lead;  /* "the flags of reap are", or NULL */
	enum flag_near near;
	enum flag_single single;
	enum flag_foreign foreign;
	const char *tok_unknown;    /* unknown and foreign flags */
	const char *tok_positional; /* unexpected arguments */
	const char *tok_value;      /* missing, repeated, non-boolean values */
	unsigned opts;          /* FO_* */
	unsigned remedy_on;     /* FR_* */
	int word_max;           /* a positional word is shown at most this
				 * many bytes; 0: whole */
	size_t argv_off;        /* FO_DASHDASH: struct strv, the words after */
	size_t saw_off;         /* FO_DASHDASH: int, set when "--" was seen */
	size_t others_off;      /* FF_COLLECT: struct strv of "--<name>" */
	flag_check_fn check;    /* NULL: every value is kept */
	const struct cmdline *line; /* the caller's line, for the fixed line
				 * a value problem ends with (a missing value
				 * in place as `form`, a non-boolean as
				 * <true|false>, a repeated one left out);
				 * NULL: the text names the form alone */
};

/* Parse argv (the words after the verb) into `out` (the verb's struct)
 * as s says.  Every problem is added to r in argv order.  Returns 0 when
 * r got nothing, 1 when it did, -1 when memory ran out (a refusal may be
 * missing: never run). */
int flags_parse(const struct flagspec *s, int argc, char **argv, void *out,
		struct refusals *r);

/* For every flag of the table in `others` (a FF_COLLECT list), in table
 * order: "--<f> is not a flag of <verbname>; it is <owner>'s[; run:
 * <remedy>]" with token tok.  0, or -1 when memory ran out. */
int flags_refuse_others(const struct flagspec *s, const struct strv *others,
			const char *tok, struct refusals *r);

/* The flag of s (as `lists` says) nearest to `name` (no dashes), as
 * s->near says, or NULL. */
const char *flags_nearest(const struct flagspec *s, const char *name);
/* The edit distance of a and b (99 when either is 63 bytes or more). */
size_t flags_distance(const char *a, const char *b);
/* Go strconv.ParseBool: 0/1 into *v, or -1. */
int flags_parse_bool(const char *s, int *v);

/* Help words: -h --help -help --h. */
int flags_is_help(const char *s);
/* how for flags_help */
#define FH_PAST_DD 0x1u   /* words after "--" count too */
#define FH_WORD 0x2u      /* the word "help" (before "--") asks too */
#define FH_WORD_FIRST 0x4u /* the word "help" as the first word asks too */
/* Does argv ask for help?  A help word before any "--", and as `how` says. */
int flags_help(int argc, char **argv, unsigned how);
/* flags_help(argc, argv, 0) */
int flags_wants_help(int argc, char **argv);

#endif
