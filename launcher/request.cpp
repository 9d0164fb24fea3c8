#include "request.hpp"

#include "base64.hpp"
#include "errors.hpp"

namespace gk {

namespace {

LauncherError badConfig(const std::string& message) {
  return makeError("BAD_LAUNCH_CONFIG", phase::kRequest, message);
}

// A decimal integer from argv: digits only, no sign, no spaces.
bool parseDecimal(const char* s, uint64_t& out) {
  if (*s == '\0') return false;
  uint64_t r = 0;
  for (; *s != '\0'; s++) {
    if (*s < '0' || *s > '9') return false;
    uint64_t d = uint64_t(*s - '0');
    if (r > (UINT64_MAX - d) / 10) return false;
    r = r * 10 + d;
  }
  out = r;
  return true;
}

const char* const kDimNames[6] = {"grid x", "grid y", "grid z", "block x", "block y", "block z"};

uint64_t dimMax(int i) {
  switch (i) {
    case 0: return kMaxGridX;
    case 1:
    case 2: return kMaxGridYZ;
    case 3:
    case 4: return kMaxBlockXY;
    default: return kMaxBlockZ;
  }
}

void setDim(LaunchDims& d, int i, uint64_t v) {
  if (i < 3) d.grid[i] = static_cast<uint32_t>(v);
  else d.block[i - 3] = static_cast<uint32_t>(v);
}

std::string dimError(int i, const std::string& got) {
  return std::string(kDimNames[i]) + " must be an integer from 1 to " + std::to_string(dimMax(i)) + ", got " + got;
}

void checkBoolBytes(const uint8_t* data, uint64_t n, const std::string& path) {
  for (uint64_t i = 0; i < n; i++) {
    if (data[i] > 1) {
      throw badRequest(path, "bool element " + std::to_string(i) + " is " + std::to_string(data[i]) +
                                 "; bool elements must be 0 or 1");
    }
  }
}

ArgSpec parseArrayArg(JsonValue& arg, const std::string& path) {
  checkKeys(arg, path, {"type", "elem", "b64", "values", "file", "length", "copyBack", "copyBackTo"});
  ArgSpec a;
  a.isArray = true;
  std::string elemName = requireString(arg, path, "elem");
  if (!elemFromName(elemName, a.elem)) {
    std::string q;
    appendJsonString(q, elemName);
    throw badRequest(path + ".elem", "unknown element type " + q + " (expected bool, i32, u32, i64, u64, f32 or f64)");
  }
  size_t size = elemSize(a.elem);
  if (const JsonValue* cb = arg.get("copyBack")) {
    if (cb->kind != JsonValue::Kind::Bool) throw badRequest(path + ".copyBack", "expected true or false");
    a.copyBack = cb->boolean;
  }
  JsonValue* b64 = nullptr;
  for (auto& m : arg.members) {
    if (m.first == "b64") b64 = &m.second;
  }
  const JsonValue* values = arg.get("values");
  const JsonValue* file = arg.get("file");
  const JsonValue* length = arg.get("length");
  if (b64 != nullptr && values != nullptr) throw badRequest(path, "give either \"b64\" or \"values\", not both");
  if (file != nullptr && (b64 != nullptr || values != nullptr)) {
    throw badRequest(path, "give only one of \"b64\", \"values\" and \"file\"");
  }
  if (file != nullptr) {
    a.file = parseFileRef(*file, path + ".file");
    a.hasFile = true;
    if (length == nullptr) throw badRequest(path, "an array in a \"file\" needs \"length\"");
  }
  if (const JsonValue* to = arg.get("copyBackTo")) {
    if (!a.copyBack) throw badRequest(path + ".copyBackTo", "needs \"copyBack\": true");
    a.copyBackTo = parseFileRef(*to, path + ".copyBackTo");
    a.hasCopyBackTo = true;
  }
  if (b64 != nullptr) {
    if (!b64->isString()) throw badRequest(path + ".b64", std::string("expected a base64 string, got ") + jsonKindName(b64->kind));
    if (base64DecodedSize(b64->text) > kMaxOneShotArrayBytes) {
      throw makeError("TOO_LARGE", phase::kRequest,
                      path + ": an array is limited to " + std::to_string(kMaxOneShotArrayBytes) + " bytes in one-shot mode");
    }
    std::string why;
    if (!base64Decode(b64->text, a.data, why)) throw badRequest(path + ".b64", why);
    std::string().swap(b64->text);  // the text is no longer needed; release it now
    if (a.data.size() % size != 0) {
      throw badRequest(path + ".b64", "decodes to " + std::to_string(a.data.size()) + " bytes, not a multiple of " +
                                          std::to_string(size) + " (the size of " + elemName + ")");
    }
    a.hasData = true;
  } else if (values != nullptr) {
    if (values->kind != JsonValue::Kind::Array) throw badRequest(path + ".values", "expected an array of numbers");
    a.data.resize(values->items.size() * size);
    for (size_t i = 0; i < values->items.size(); i++) {
      uint64_t bits = parseScalarBits(values->items[i], a.elem, path + ".values[" + std::to_string(i) + "]");
      for (size_t k = 0; k < size; k++) a.data[i * size + k] = uint8_t(bits >> (8 * k));
    }
    a.hasData = true;
  }
  if (a.elem == Elem::Bool) checkBoolBytes(a.data.data(), a.data.size(), path + (b64 != nullptr ? ".b64" : ".values"));
  if (length != nullptr) {
    uint64_t n = requireUint(*length, path + ".length", UINT64_MAX);
    // An array that never travels in the JSON text is limited only by the device.
    bool inFiles = a.hasFile || a.hasCopyBackTo;
    uint64_t limit = inFiles ? kMaxFileArrayBytes : kMaxOneShotArrayBytes;
    if (n > limit / size) {
      throw makeError("TOO_LARGE", phase::kRequest,
                      path + ": length " + std::to_string(n) + " is " + std::to_string(n) + " x " + std::to_string(size) +
                          " bytes; an array is limited to " + std::to_string(limit) + " bytes in one-shot mode" +
                          (inFiles ? " (in shared files)" : ""));
    }
    if (a.hasData && n * size != a.data.size()) {
      throw badRequest(path + ".length", "length " + std::to_string(n) + " does not match the " +
                                             std::to_string(a.data.size() / size) + " elements given");
    }
    a.bytes = n * size;
  } else if (!a.hasData) {
    throw badRequest(path, "an array needs \"b64\", \"values\" or \"length\" (or \"file\" with \"length\")");
  } else {
    a.bytes = a.data.size();
  }
  return a;
}

}  // namespace

void checkKeys(const JsonValue& obj, const std::string& path, std::initializer_list<const char*> allowed) {
  for (const auto& m : obj.members) {
    bool ok = false;
    for (const char* k : allowed) {
      if (m.first.size() == std::char_traits<char>::length(k) && m.first.compare(k) == 0) {
        ok = true;
        break;
      }
    }
    if (!ok) {
      std::string q;
      appendJsonString(q, m.first);
      throw badRequest(path, "unknown key " + q);
    }
  }
}

const JsonValue& requireMember(const JsonValue& obj, const std::string& path, const char* key) {
  const JsonValue* v = obj.get(key);
  if (v == nullptr) throw badRequest(path, std::string("missing \"") + key + "\"");
  return *v;
}

std::string requireString(const JsonValue& obj, const std::string& path, const char* key) {
  const JsonValue& v = requireMember(obj, path, key);
  if (!v.isString()) throw badRequest(path + "." + key, std::string("expected a string, got ") + jsonKindName(v.kind));
  return v.text;
}

uint64_t requireUint(const JsonValue& v, const std::string& path, uint64_t max) {
  uint64_t out;
  if (!jsonToUint(v, max, out)) {
    std::string got = v.isNumber() ? v.text.substr(0, 40) : jsonKindName(v.kind);
    throw badRequest(path, "expected an integer from 0 to " + std::to_string(max) + ", got " + got);
  }
  return out;
}

uint64_t parseScalarArg(const JsonValue& arg, const std::string& path, Elem& elem) {
  checkKeys(arg, path, {"type", "value"});
  std::string type = requireString(arg, path, "type");
  if (!elemFromName(type, elem)) {
    std::string q;
    appendJsonString(q, type);
    throw badRequest(path + ".type", "unknown type " + q +
                                         " (expected bool, i32, u32, i64, u64, f32, f64, or \"array\")");
  }
  return parseScalarBits(requireMember(arg, path, "value"), elem, path + ".value");
}

// "constants": [{"name": "TAPS", "elem": "f32", "b64": "..."}, ...]: at most kMaxConstants
// variables of at most 64 KiB each (CUDA's constant memory per module), names unique.
static std::vector<ConstantSpec> parseConstants(const JsonValue& list) {
  if (list.kind != JsonValue::Kind::Array) throw badRequest("constants", std::string("expected an array, got ") + jsonKindName(list.kind));
  if (list.items.size() > kMaxConstants) {
    throw makeError("TOO_LARGE", phase::kRequest, "a launch fills at most " + std::to_string(kMaxConstants) + " constants");
  }
  std::vector<ConstantSpec> out;
  for (size_t i = 0; i < list.items.size(); i++) {
    const JsonValue& c = list.items[i];
    std::string path = "constants[" + std::to_string(i) + "]";
    if (c.kind != JsonValue::Kind::Object) throw badRequest(path, std::string("expected an object, got ") + jsonKindName(c.kind));
    checkKeys(c, path, {"name", "elem", "b64"});
    ConstantSpec s;
    s.name = requireString(c, path, "name");
    if (s.name.empty() || s.name.find('\0') != std::string::npos) throw badRequest(path + ".name", "expected a symbol name");
    for (const ConstantSpec& prev : out) {
      if (prev.name == s.name) throw badRequest(path + ".name", "the constant " + s.name + " is given twice");
    }
    std::string elem = requireString(c, path, "elem");
    if (!elemFromName(elem, s.elem)) throw badRequest(path + ".elem", "unknown element type (expected bool, i32, u32, i64, u64, f32, f64)");
    const JsonValue& b64 = requireMember(c, path, "b64");
    if (!b64.isString()) throw badRequest(path + ".b64", std::string("expected a base64 string, got ") + jsonKindName(b64.kind));
    if (base64DecodedSize(b64.text) > kMaxConstantBytes) {
      throw makeError("TOO_LARGE", phase::kRequest, path + " holds more than " + std::to_string(kMaxConstantBytes) + " bytes, CUDA's constant memory");
    }
    std::string why;
    if (!base64Decode(b64.text, s.data, why)) throw badRequest(path + ".b64", why);
    if (s.data.size() % elemSize(s.elem) != 0) {
      throw badRequest(path + ".b64", std::to_string(s.data.size()) + " bytes is not a whole number of " + elem + " elements");
    }
    if (s.elem == Elem::Bool) checkBoolBytes(s.data.data(), s.data.size(), path + ".b64");
    out.push_back(std::move(s));
  }
  return out;
}

LaunchOptions parseLaunchOptions(const JsonValue& obj) {
  LaunchOptions o;
  if (const JsonValue* v = obj.get("sharedBytes")) o.sharedBytes = static_cast<uint32_t>(requireUint(*v, "sharedBytes", UINT32_MAX));
  if (const JsonValue* v = obj.get("repeat")) {
    o.repeat = static_cast<uint32_t>(requireUint(*v, "repeat", kMaxRepeat));
    if (o.repeat == 0) throw badRequest("repeat", "expected an integer from 1 to " + std::to_string(kMaxRepeat) + ", got 0");
  }
  if (const JsonValue* v = obj.get("timeoutMs")) o.timeoutMs = requireUint(*v, "timeoutMs", kMaxTimeoutMs);
  if (const JsonValue* v = obj.get("constants")) o.constants = parseConstants(*v);
  return o;
}

Request parseRequest(const char* text, size_t size) {
  JsonValue root = parseJson(text, size);
  if (root.kind != JsonValue::Kind::Object) {
    throw badRequest("", std::string("the request must be a JSON object, got ") + jsonKindName(root.kind));
  }
  checkKeys(root, "request", {"args", "sharedBytes", "repeat", "timeoutMs", "constants"});
  Request req;
  req.options = parseLaunchOptions(root);
  JsonValue* args = nullptr;
  for (auto& m : root.members) {
    if (m.first == "args") args = &m.second;
  }
  if (args == nullptr) throw badRequest("request", "missing \"args\"");
  if (args->kind != JsonValue::Kind::Array) throw badRequest("args", std::string("expected an array, got ") + jsonKindName(args->kind));
  if (args->items.size() > kMaxArgs) {
    throw makeError("TOO_LARGE", phase::kRequest, "a kernel takes at most " + std::to_string(kMaxArgs) + " arguments");
  }
  for (size_t i = 0; i < args->items.size(); i++) {
    JsonValue& arg = args->items[i];
    std::string path = "args[" + std::to_string(i) + "]";
    if (arg.kind != JsonValue::Kind::Object) throw badRequest(path, std::string("expected an object, got ") + jsonKindName(arg.kind));
    const JsonValue* type = arg.get("type");
    if (type != nullptr && type->isString() && type->text == "array") {
      req.args.push_back(parseArrayArg(arg, path));
    } else {
      ArgSpec s;
      s.bits = parseScalarArg(arg, path, s.elem);
      req.args.push_back(std::move(s));
    }
  }
  return req;
}

void mapArgFiles(Request& req, bool copyIn) {
  for (size_t i = 0; i < req.args.size(); i++) {
    ArgSpec& a = req.args[i];
    if (a.hasFile) {
      a.fileRange = FileRange(a.file, a.bytes, false);
      if (a.elem == Elem::Bool) checkBoolBytes(a.fileRange.data(), a.bytes, a.file.where);
      if (copyIn) {
        a.data.assign(a.fileRange.data(), a.fileRange.data() + a.bytes);
        a.hasData = true;
        a.hasFile = false;
        a.fileRange = FileRange();
      }
    }
    if (a.hasCopyBackTo) a.copyBackRange = FileRange(a.copyBackTo, a.bytes, true);
  }
}

LaunchDims parseDimsArgv(char* const* six) {
  LaunchDims d;
  for (int i = 0; i < 6; i++) {
    uint64_t v;
    if (!parseDecimal(six[i], v) || v < 1 || v > dimMax(i)) {
      std::string q;
      appendJsonString(q, six[i]);
      throw badConfig(dimError(i, q));
    }
    setDim(d, i, v);
  }
  checkDims(d);
  return d;
}

LaunchDims parseDimsJson(const JsonValue* grid, const JsonValue* block) {
  LaunchDims d;
  const JsonValue* both[2] = {grid, block};
  for (int g = 0; g < 2; g++) {
    const char* name = g == 0 ? "grid" : "block";
    const JsonValue* arr = both[g];
    if (arr == nullptr) throw badConfig(std::string("missing \"") + name + "\"");
    if (arr->kind != JsonValue::Kind::Array || arr->items.size() != 3) {
      throw badConfig(std::string("\"") + name + "\" must be an array of three integers");
    }
    for (int k = 0; k < 3; k++) {
      int i = g * 3 + k;
      uint64_t v;
      if (!jsonToUint(arr->items[size_t(k)], dimMax(i), v) || v < 1) {
        const JsonValue& item = arr->items[size_t(k)];
        throw badConfig(dimError(i, item.isNumber() ? item.text.substr(0, 40) : jsonKindName(item.kind)));
      }
      setDim(d, i, v);
    }
  }
  checkDims(d);
  return d;
}

void checkDims(const LaunchDims& d) {
  if (d.blockThreads() > kMaxBlockThreads) {
    throw badConfig("a block of " + std::to_string(d.block[0]) + "x" + std::to_string(d.block[1]) + "x" +
                    std::to_string(d.block[2]) + " = " + std::to_string(d.blockThreads()) +
                    " threads exceeds the limit of " + std::to_string(kMaxBlockThreads) + " threads per block");
  }
}

}  // namespace gk
