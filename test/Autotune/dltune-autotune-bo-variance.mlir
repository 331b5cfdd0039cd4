// Expected improvement needs the model's variance: bo with a model that has
// none is an error, not greedy search under another name.
// RUN: dltune-opt %s --dltune-autotune="strategy=bo cost-model=xgb db=%t.db" --verify-diagnostics -o /dev/null

// expected-error@+1 {{dltune-autotune: strategy 'bo' needs a cost model with variance (rf, dgp, gp); 'xgb' has none}}
module {
  func.func @f() {
    return
  }
}
