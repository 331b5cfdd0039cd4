// A cost model given to a strategy that uses none is refused up front,
// before any candidate is built.
// RUN: dltune-opt %s --dltune-autotune="strategy=random cost-model=xgb db=%t.db" --verify-diagnostics -o /dev/null
// RUN: not test -e %t.db

// expected-error@+1 {{dltune-autotune: strategy 'random' uses no cost model (cost model 'xgb' given); use sa, evolutionary or bo}}
module {
  func.func @f() {
    return
  }
}
