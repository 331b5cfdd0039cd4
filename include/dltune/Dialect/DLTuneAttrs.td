//===- DLTuneAttrs.td - dltune attributes ------------------*- tablegen -*-===//

#ifndef DLTUNE_ATTRS_TD
#define DLTUNE_ATTRS_TD

include "dltune/Dialect/DLTuneDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class DLTune_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<DLTune_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def DLTune_KnobAttr : DLTune_Attr<"Knob", "knob"> {
  let summary = "A named tunable knob with its candidate values";
  let description = [{
    A knob is one decision of a schedule (a tile size, an unroll factor, a
    vector width, a thread count, an on/off switch) together with the
    integer values it may take. Candidates are written as a list, or in a
    compact form that is expanded when parsed:

    * `[8, 16, 24]`: explicit values (distinct);
    * `pow2<8, 256>`: powers of two from 8 to 256;
    * `range<4, 32, 4>`: 4, 8, ..., 32 (start, stop inclusive, step).

    The printer uses the `pow2` form when the values are exactly such a
    sequence of at least three elements.

    ```mlir
    #dltune.knob<"tile_m", pow2<8, 128>>
    #dltune.knob<"vectorize", [0, 1]>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name,
                        ArrayRefParameter<"int64_t">:$values);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def DLTune_SpaceAttr : DLTune_Attr<"Space", "space"> {
  let summary = "A search space: knobs, parameters and constraints";
  let description = [{
    `knobs` lists the knobs in order (written `name = candidates` with the
    candidate forms of `#dltune.knob`). `params` binds names to integer
    constants: the op's dimensions (`M`, `N`, `K`, ...) and target limits
    (`max_threads`, `smem_bytes`, ...). `constraints` are integer expressions
    over knobs and params (`+ - * / %`, comparisons, `&&`, `||`, `!`,
    `min`, `max`, parentheses) that every valid configuration satisfies:
    divisibility (`tile_m % reg_m == 0`), bounds against op dims
    (`tile_m <= M`) and hardware limits
    (`(tile_m / thr_m) * (tile_n / thr_n) <= max_threads`).

    The verifier rejects duplicate or empty knobs, parameters that shadow
    knobs, constraints that do not parse and names that are neither knobs
    nor parameters.

    ```mlir
    #dltune.space<knobs {tile_m = pow2<8, 64>, reg_m = [1, 2, 4]},
                  params {M = 512},
                  constraints ["M % tile_m == 0", "tile_m % reg_m == 0"]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::dltune::KnobAttr">:$knobs,
                        "::mlir::DictionaryAttr":$params,
                        ArrayRefParameter<"::mlir::StringAttr">:$constraints);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The MLIR-independent space (parameters in dictionary order).
    ::llvm::Expected<::mlir::dltune::SearchSpace> getSearchSpace() const;
  }];
}

def DLTune_ConfigAttr : DLTune_Attr<"Config", "config"> {
  let summary = "A chosen configuration: one integer value per knob";
  let description = [{
    Records the values chosen for an op's knobs, by a heuristic
    (`--dltune-annotate default-config=true`), by the autotuner or by hand.
    When the op also carries `dltune.space`, the verifier checks that every
    knob has exactly one value, that each value is among the knob's
    candidates, and that all constraints hold, naming the knob or the
    violated constraint otherwise.

    ```mlir
    #dltune.config<tile_m = 64, reg_m = 8>
    ```
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$values);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The value of knob `name`, if set.
    std::optional<int64_t> getValue(::llvm::StringRef name) const;
    /// The values in `space`'s knob order; fails naming a missing or unknown
    /// knob.
    ::llvm::Expected<::mlir::dltune::Config>
    toConfig(const ::mlir::dltune::SearchSpace &space) const;
    /// Builds the attribute from values in `space`'s knob order.
    static ConfigAttr get(::mlir::MLIRContext *context,
                          const ::mlir::dltune::SearchSpace &space,
                          const ::mlir::dltune::Config &config);
  }];
}

#endif // DLTUNE_ATTRS_TD
