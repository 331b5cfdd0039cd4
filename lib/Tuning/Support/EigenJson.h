//===- EigenJson.h - Eigen matrices in saved models -------------*- C++ -*-===//
//
// Matrices are saved as {"rows", "cols", "data" (row-major)}; nlohmann-json
// writes doubles with round-trip precision, so a loaded model predicts
// exactly what the saved one did. Reads check shape and types without
// exceptions (dltune builds without them).
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TUNING_EIGENJSON_H
#define DLTUNE_LIB_TUNING_EIGENJSON_H

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

namespace mlir::dltune {

inline nlohmann::json matrixToJson(const Eigen::MatrixXd &m) {
  nlohmann::json data = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      data.push_back(m(i, j));
  return {{"rows", m.rows()}, {"cols", m.cols()}, {"data", std::move(data)}};
}

/// False when `j` is not a well-formed matrix.
inline bool matrixFromJson(const nlohmann::json &j, Eigen::MatrixXd &m) {
  if (!j.is_object() || !j.contains("rows") || !j.contains("cols") || !j.contains("data"))
    return false;
  const nlohmann::json &rows = j["rows"], &cols = j["cols"], &data = j["data"];
  if (!rows.is_number_unsigned() || !cols.is_number_unsigned() || !data.is_array())
    return false;
  uint64_t r = rows.get<uint64_t>(), c = cols.get<uint64_t>();
  if (r > (1u << 24) || c > (1u << 24) || data.size() != r * c)
    return false;
  m.resize(r, c);
  for (uint64_t i = 0; i < r * c; ++i) {
    if (!data[i].is_number())
      return false;
    m(i / c, i % c) = data[i].get<double>();
  }
  return true;
}

inline nlohmann::json vectorToJson(const Eigen::VectorXd &v) {
  return nlohmann::json(std::vector<double>(v.data(), v.data() + v.size()));
}

inline bool vectorFromJson(const nlohmann::json &j, Eigen::VectorXd &v) {
  if (!j.is_array() || j.size() > (1u << 24))
    return false;
  v.resize(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number())
      return false;
    v[i] = j[i].get<double>();
  }
  return true;
}

/// A finite number stored under `key`.
inline bool numberFromJson(const nlohmann::json &j, const char *key, double &out) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number())
    return false;
  out = j[key].get<double>();
  return std::isfinite(out);
}

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TUNING_EIGENJSON_H
