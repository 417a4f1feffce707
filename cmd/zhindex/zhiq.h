/* zhiq.h - zhindex query and suite (query.c, suite.c). */
#ifndef ZHIQ_H
#define ZHIQ_H
int zhiq_query(int argc, char **argv);
int zhiq_suite(int argc, char **argv);
#endif
