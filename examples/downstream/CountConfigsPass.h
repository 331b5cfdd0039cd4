//===- CountConfigsPass.h - The example's own pass --------------*- C++ -*-===//
#ifndef MY_COUNTCONFIGSPASS_H
#define MY_COUNTCONFIGSPASS_H

namespace my {
/// Registers --my-require-configs: fails unless every op that has a dltune
/// search space also carries a chosen configuration, and remarks how many
/// do. Stands for the checks a real compiler would put between dltune's
/// passes and its own.
void registerRequireConfigsPass();
} // namespace my

#endif // MY_COUNTCONFIGSPASS_H
