// Bundled by scripts/bundle-hooks.mjs from src/; edit the sources, not this file.
import { createRequire as __gmsRequire } from 'node:module';
const require = __gmsRequire(import.meta.url);
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, {
  get: (a, b) => (typeof require !== "undefined" ? require : a)[b]
}) : x)(function(x) {
  if (typeof require !== "undefined") return require.apply(this, arguments);
  throw Error('Dynamic require of "' + x + '" is not supported');
});
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __commonJS = (cb, mod) => function __require2() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// node_modules/zod/v3/helpers/util.js
var util, objectUtil, ZodParsedType, getParsedType;
var init_util = __esm({
  "node_modules/zod/v3/helpers/util.js"() {
    (function(util2) {
      util2.assertEqual = (_) => {
      };
      function assertIs(_arg) {
      }
      util2.assertIs = assertIs;
      function assertNever(_x) {
        throw new Error();
      }
      util2.assertNever = assertNever;
      util2.arrayToEnum = (items) => {
        const obj = {};
        for (const item of items) {
          obj[item] = item;
        }
        return obj;
      };
      util2.getValidEnumValues = (obj) => {
        const validKeys = util2.objectKeys(obj).filter((k) => typeof obj[obj[k]] !== "number");
        const filtered = {};
        for (const k of validKeys) {
          filtered[k] = obj[k];
        }
        return util2.objectValues(filtered);
      };
      util2.objectValues = (obj) => {
        return util2.objectKeys(obj).map(function(e) {
          return obj[e];
        });
      };
      util2.objectKeys = typeof Object.keys === "function" ? (obj) => Object.keys(obj) : (object) => {
        const keys = [];
        for (const key in object) {
          if (Object.prototype.hasOwnProperty.call(object, key)) {
            keys.push(key);
          }
        }
        return keys;
      };
      util2.find = (arr, checker) => {
        for (const item of arr) {
          if (checker(item))
            return item;
        }
        return void 0;
      };
      util2.isInteger = typeof Number.isInteger === "function" ? (val) => Number.isInteger(val) : (val) => typeof val === "number" && Number.isFinite(val) && Math.floor(val) === val;
      function joinValues(array, separator = " | ") {
        return array.map((val) => typeof val === "string" ? `'${val}'` : val).join(separator);
      }
      util2.joinValues = joinValues;
      util2.jsonStringifyReplacer = (_, value) => {
        if (typeof value === "bigint") {
          return value.toString();
        }
        return value;
      };
    })(util || (util = {}));
    (function(objectUtil2) {
      objectUtil2.mergeShapes = (first, second) => {
        return {
          ...first,
          ...second
          // second overwrites first
        };
      };
    })(objectUtil || (objectUtil = {}));
    ZodParsedType = util.arrayToEnum([
      "string",
      "nan",
      "number",
      "integer",
      "float",
      "boolean",
      "date",
      "bigint",
      "symbol",
      "function",
      "undefined",
      "null",
      "array",
      "object",
      "unknown",
      "promise",
      "void",
      "never",
      "map",
      "set"
    ]);
    getParsedType = (data) => {
      const t = typeof data;
      switch (t) {
        case "undefined":
          return ZodParsedType.undefined;
        case "string":
          return ZodParsedType.string;
        case "number":
          return Number.isNaN(data) ? ZodParsedType.nan : ZodParsedType.number;
        case "boolean":
          return ZodParsedType.boolean;
        case "function":
          return ZodParsedType.function;
        case "bigint":
          return ZodParsedType.bigint;
        case "symbol":
          return ZodParsedType.symbol;
        case "object":
          if (Array.isArray(data)) {
            return ZodParsedType.array;
          }
          if (data === null) {
            return ZodParsedType.null;
          }
          if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
            return ZodParsedType.promise;
          }
          if (typeof Map !== "undefined" && data instanceof Map) {
            return ZodParsedType.map;
          }
          if (typeof Set !== "undefined" && data instanceof Set) {
            return ZodParsedType.set;
          }
          if (typeof Date !== "undefined" && data instanceof Date) {
            return ZodParsedType.date;
          }
          return ZodParsedType.object;
        default:
          return ZodParsedType.unknown;
      }
    };
  }
});

// node_modules/zod/v3/ZodError.js
var ZodIssueCode, quotelessJson, ZodError;
var init_ZodError = __esm({
  "node_modules/zod/v3/ZodError.js"() {
    init_util();
    ZodIssueCode = util.arrayToEnum([
      "invalid_type",
      "invalid_literal",
      "custom",
      "invalid_union",
      "invalid_union_discriminator",
      "invalid_enum_value",
      "unrecognized_keys",
      "invalid_arguments",
      "invalid_return_type",
      "invalid_date",
      "invalid_string",
      "too_small",
      "too_big",
      "invalid_intersection_types",
      "not_multiple_of",
      "not_finite"
    ]);
    quotelessJson = (obj) => {
      const json = JSON.stringify(obj, null, 2);
      return json.replace(/"([^"]+)":/g, "$1:");
    };
    ZodError = class _ZodError extends Error {
      get errors() {
        return this.issues;
      }
      constructor(issues) {
        super();
        this.issues = [];
        this.addIssue = (sub) => {
          this.issues = [...this.issues, sub];
        };
        this.addIssues = (subs = []) => {
          this.issues = [...this.issues, ...subs];
        };
        const actualProto = new.target.prototype;
        if (Object.setPrototypeOf) {
          Object.setPrototypeOf(this, actualProto);
        } else {
          this.__proto__ = actualProto;
        }
        this.name = "ZodError";
        this.issues = issues;
      }
      format(_mapper) {
        const mapper = _mapper || function(issue) {
          return issue.message;
        };
        const fieldErrors = { _errors: [] };
        const processError = (error) => {
          for (const issue of error.issues) {
            if (issue.code === "invalid_union") {
              issue.unionErrors.map(processError);
            } else if (issue.code === "invalid_return_type") {
              processError(issue.returnTypeError);
            } else if (issue.code === "invalid_arguments") {
              processError(issue.argumentsError);
            } else if (issue.path.length === 0) {
              fieldErrors._errors.push(mapper(issue));
            } else {
              let curr = fieldErrors;
              let i = 0;
              while (i < issue.path.length) {
                const el = issue.path[i];
                const terminal = i === issue.path.length - 1;
                if (el === "_errors") {
                  if (terminal)
                    curr._errors.push(mapper(issue));
                  i++;
                  continue;
                }
                if (!Object.prototype.hasOwnProperty.call(curr, el)) {
                  if (el === "__proto__") {
                    Object.defineProperty(curr, el, {
                      value: { _errors: [] },
                      writable: true,
                      enumerable: true,
                      configurable: true
                    });
                  } else {
                    curr[el] = { _errors: [] };
                  }
                }
                curr = curr[el];
                if (terminal) {
                  curr._errors.push(mapper(issue));
                }
                i++;
              }
            }
          }
        };
        processError(this);
        return fieldErrors;
      }
      static assert(value) {
        if (!(value instanceof _ZodError)) {
          throw new Error(`Not a ZodError: ${value}`);
        }
      }
      toString() {
        return this.message;
      }
      get message() {
        return JSON.stringify(this.issues, util.jsonStringifyReplacer, 2);
      }
      get isEmpty() {
        return this.issues.length === 0;
      }
      flatten(mapper = (issue) => issue.message) {
        const fieldErrors = /* @__PURE__ */ Object.create(null);
        const formErrors = [];
        for (const sub of this.issues) {
          if (sub.path.length > 0) {
            const firstEl = sub.path[0];
            fieldErrors[firstEl] = fieldErrors[firstEl] || [];
            fieldErrors[firstEl].push(mapper(sub));
          } else {
            formErrors.push(mapper(sub));
          }
        }
        return { formErrors, fieldErrors };
      }
      get formErrors() {
        return this.flatten();
      }
    };
    ZodError.create = (issues) => {
      const error = new ZodError(issues);
      return error;
    };
  }
});

// node_modules/zod/v3/locales/en.js
var errorMap, en_default;
var init_en = __esm({
  "node_modules/zod/v3/locales/en.js"() {
    init_ZodError();
    init_util();
    errorMap = (issue, _ctx) => {
      let message;
      switch (issue.code) {
        case ZodIssueCode.invalid_type:
          if (issue.received === ZodParsedType.undefined) {
            message = "Required";
          } else {
            message = `Expected ${issue.expected}, received ${issue.received}`;
          }
          break;
        case ZodIssueCode.invalid_literal:
          message = `Invalid literal value, expected ${JSON.stringify(issue.expected, util.jsonStringifyReplacer)}`;
          break;
        case ZodIssueCode.unrecognized_keys:
          message = `Unrecognized key(s) in object: ${util.joinValues(issue.keys, ", ")}`;
          break;
        case ZodIssueCode.invalid_union:
          message = `Invalid input`;
          break;
        case ZodIssueCode.invalid_union_discriminator:
          message = `Invalid discriminator value. Expected ${util.joinValues(issue.options)}`;
          break;
        case ZodIssueCode.invalid_enum_value:
          message = `Invalid enum value. Expected ${util.joinValues(issue.options)}, received '${issue.received}'`;
          break;
        case ZodIssueCode.invalid_arguments:
          message = `Invalid function arguments`;
          break;
        case ZodIssueCode.invalid_return_type:
          message = `Invalid function return type`;
          break;
        case ZodIssueCode.invalid_date:
          message = `Invalid date`;
          break;
        case ZodIssueCode.invalid_string:
          if (typeof issue.validation === "object") {
            if ("includes" in issue.validation) {
              message = `Invalid input: must include "${issue.validation.includes}"`;
              if (typeof issue.validation.position === "number") {
                message = `${message} at one or more positions greater than or equal to ${issue.validation.position}`;
              }
            } else if ("startsWith" in issue.validation) {
              message = `Invalid input: must start with "${issue.validation.startsWith}"`;
            } else if ("endsWith" in issue.validation) {
              message = `Invalid input: must end with "${issue.validation.endsWith}"`;
            } else {
              util.assertNever(issue.validation);
            }
          } else if (issue.validation !== "regex") {
            message = `Invalid ${issue.validation}`;
          } else {
            message = "Invalid";
          }
          break;
        case ZodIssueCode.too_small:
          if (issue.type === "array")
            message = `Array must contain ${issue.exact ? "exactly" : issue.inclusive ? `at least` : `more than`} ${issue.minimum} element(s)`;
          else if (issue.type === "string")
            message = `String must contain ${issue.exact ? "exactly" : issue.inclusive ? `at least` : `over`} ${issue.minimum} character(s)`;
          else if (issue.type === "number")
            message = `Number must be ${issue.exact ? `exactly equal to ` : issue.inclusive ? `greater than or equal to ` : `greater than `}${issue.minimum}`;
          else if (issue.type === "bigint")
            message = `Number must be ${issue.exact ? `exactly equal to ` : issue.inclusive ? `greater than or equal to ` : `greater than `}${issue.minimum}`;
          else if (issue.type === "date")
            message = `Date must be ${issue.exact ? `exactly equal to ` : issue.inclusive ? `greater than or equal to ` : `greater than `}${new Date(Number(issue.minimum))}`;
          else
            message = "Invalid input";
          break;
        case ZodIssueCode.too_big:
          if (issue.type === "array")
            message = `Array must contain ${issue.exact ? `exactly` : issue.inclusive ? `at most` : `less than`} ${issue.maximum} element(s)`;
          else if (issue.type === "string")
            message = `String must contain ${issue.exact ? `exactly` : issue.inclusive ? `at most` : `under`} ${issue.maximum} character(s)`;
          else if (issue.type === "number")
            message = `Number must be ${issue.exact ? `exactly` : issue.inclusive ? `less than or equal to` : `less than`} ${issue.maximum}`;
          else if (issue.type === "bigint")
            message = `BigInt must be ${issue.exact ? `exactly` : issue.inclusive ? `less than or equal to` : `less than`} ${issue.maximum}`;
          else if (issue.type === "date")
            message = `Date must be ${issue.exact ? `exactly` : issue.inclusive ? `smaller than or equal to` : `smaller than`} ${new Date(Number(issue.maximum))}`;
          else
            message = "Invalid input";
          break;
        case ZodIssueCode.custom:
          message = `Invalid input`;
          break;
        case ZodIssueCode.invalid_intersection_types:
          message = `Intersection results could not be merged`;
          break;
        case ZodIssueCode.not_multiple_of:
          message = `Number must be a multiple of ${issue.multipleOf}`;
          break;
        case ZodIssueCode.not_finite:
          message = "Number must be finite";
          break;
        default:
          message = _ctx.defaultError;
          util.assertNever(issue);
      }
      return { message };
    };
    en_default = errorMap;
  }
});

// node_modules/zod/v3/errors.js
function setErrorMap(map) {
  overrideErrorMap = map;
}
function getErrorMap() {
  return overrideErrorMap;
}
var overrideErrorMap;
var init_errors = __esm({
  "node_modules/zod/v3/errors.js"() {
    init_en();
    overrideErrorMap = en_default;
  }
});

// node_modules/zod/v3/helpers/parseUtil.js
function addIssueToContext(ctx, issueData) {
  const overrideMap = getErrorMap();
  const issue = makeIssue({
    issueData,
    data: ctx.data,
    path: ctx.path,
    errorMaps: [
      ctx.common.contextualErrorMap,
      // contextual error map is first priority
      ctx.schemaErrorMap,
      // then schema-bound map if available
      overrideMap,
      // then global override map
      overrideMap === en_default ? void 0 : en_default
      // then global default map
    ].filter((x) => !!x)
  });
  ctx.common.issues.push(issue);
}
var makeIssue, EMPTY_PATH, ParseStatus, INVALID, DIRTY, OK, isAborted, isDirty, isValid, isAsync;
var init_parseUtil = __esm({
  "node_modules/zod/v3/helpers/parseUtil.js"() {
    init_errors();
    init_en();
    makeIssue = (params) => {
      const { data, path, errorMaps, issueData } = params;
      const fullPath = [...path, ...issueData.path || []];
      const fullIssue = {
        ...issueData,
        path: fullPath
      };
      if (issueData.message !== void 0) {
        return {
          ...issueData,
          path: fullPath,
          message: issueData.message
        };
      }
      let errorMessage = "";
      const maps = errorMaps.filter((m) => !!m).slice().reverse();
      for (const map of maps) {
        errorMessage = map(fullIssue, { data, defaultError: errorMessage }).message;
      }
      return {
        ...issueData,
        path: fullPath,
        message: errorMessage
      };
    };
    EMPTY_PATH = [];
    ParseStatus = class _ParseStatus {
      constructor() {
        this.value = "valid";
      }
      dirty() {
        if (this.value === "valid")
          this.value = "dirty";
      }
      abort() {
        if (this.value !== "aborted")
          this.value = "aborted";
      }
      static mergeArray(status, results) {
        const arrayValue = [];
        for (const s of results) {
          if (s.status === "aborted")
            return INVALID;
          if (s.status === "dirty")
            status.dirty();
          arrayValue.push(s.value);
        }
        return { status: status.value, value: arrayValue };
      }
      static async mergeObjectAsync(status, pairs) {
        const syncPairs = [];
        for (const pair of pairs) {
          const key = await pair.key;
          const value = await pair.value;
          syncPairs.push({
            key,
            value
          });
        }
        return _ParseStatus.mergeObjectSync(status, syncPairs);
      }
      static mergeObjectSync(status, pairs) {
        const finalObject = {};
        for (const pair of pairs) {
          const { key, value } = pair;
          if (key.status === "aborted")
            return INVALID;
          if (value.status === "aborted")
            return INVALID;
          if (key.status === "dirty")
            status.dirty();
          if (value.status === "dirty")
            status.dirty();
          if (key.value !== "__proto__" && (typeof value.value !== "undefined" || pair.alwaysSet)) {
            finalObject[key.value] = value.value;
          }
        }
        return { status: status.value, value: finalObject };
      }
    };
    INVALID = Object.freeze({
      status: "aborted"
    });
    DIRTY = (value) => ({ status: "dirty", value });
    OK = (value) => ({ status: "valid", value });
    isAborted = (x) => x.status === "aborted";
    isDirty = (x) => x.status === "dirty";
    isValid = (x) => x.status === "valid";
    isAsync = (x) => typeof Promise !== "undefined" && x instanceof Promise;
  }
});

// node_modules/zod/v3/helpers/typeAliases.js
var init_typeAliases = __esm({
  "node_modules/zod/v3/helpers/typeAliases.js"() {
  }
});

// node_modules/zod/v3/helpers/errorUtil.js
var errorUtil;
var init_errorUtil = __esm({
  "node_modules/zod/v3/helpers/errorUtil.js"() {
    (function(errorUtil2) {
      errorUtil2.errToObj = (message) => typeof message === "string" ? { message } : message || {};
      errorUtil2.toString = (message) => typeof message === "string" ? message : message?.message;
    })(errorUtil || (errorUtil = {}));
  }
});

// node_modules/zod/v3/types.js
function processCreateParams(params) {
  if (!params)
    return {};
  const { errorMap: errorMap2, invalid_type_error, required_error, description } = params;
  if (errorMap2 && (invalid_type_error || required_error)) {
    throw new Error(`Can't use "invalid_type_error" or "required_error" in conjunction with custom error map.`);
  }
  if (errorMap2)
    return { errorMap: errorMap2, description };
  const customMap = (iss, ctx) => {
    const { message } = params;
    if (iss.code === "invalid_enum_value") {
      return { message: message ?? ctx.defaultError };
    }
    if (typeof ctx.data === "undefined") {
      return { message: message ?? required_error ?? ctx.defaultError };
    }
    if (iss.code !== "invalid_type")
      return { message: ctx.defaultError };
    return { message: message ?? invalid_type_error ?? ctx.defaultError };
  };
  return { errorMap: customMap, description };
}
function timeRegexSource(args) {
  let secondsRegexSource = `[0-5]\\d`;
  if (args.precision) {
    secondsRegexSource = `${secondsRegexSource}\\.\\d{${args.precision}}`;
  } else if (args.precision == null) {
    secondsRegexSource = `${secondsRegexSource}(\\.\\d+)?`;
  }
  const secondsQuantifier = args.precision ? "+" : "?";
  return `([01]\\d|2[0-3]):[0-5]\\d(:${secondsRegexSource})${secondsQuantifier}`;
}
function timeRegex(args) {
  return new RegExp(`^${timeRegexSource(args)}$`);
}
function datetimeRegex(args) {
  let regex = `${dateRegexSource}T${timeRegexSource(args)}`;
  const opts = [];
  opts.push(args.local ? `Z?` : `Z`);
  if (args.offset)
    opts.push(`([+-]\\d{2}:?\\d{2})`);
  regex = `${regex}(${opts.join("|")})`;
  return new RegExp(`^${regex}$`);
}
function isValidIP(ip, version) {
  if ((version === "v4" || !version) && ipv4Regex.test(ip)) {
    return true;
  }
  if ((version === "v6" || !version) && ipv6Regex.test(ip)) {
    return true;
  }
  return false;
}
function isValidJWT(jwt, alg) {
  if (!jwtRegex.test(jwt))
    return false;
  try {
    const [header2] = jwt.split(".");
    if (!header2)
      return false;
    const base64 = header2.replace(/-/g, "+").replace(/_/g, "/").padEnd(header2.length + (4 - header2.length % 4) % 4, "=");
    const decoded = JSON.parse(atob(base64));
    if (typeof decoded !== "object" || decoded === null)
      return false;
    if ("typ" in decoded && decoded?.typ !== "JWT")
      return false;
    if (!decoded.alg)
      return false;
    if (alg && decoded.alg !== alg)
      return false;
    return true;
  } catch {
    return false;
  }
}
function isValidCidr(ip, version) {
  if ((version === "v4" || !version) && ipv4CidrRegex.test(ip)) {
    return true;
  }
  if ((version === "v6" || !version) && ipv6CidrRegex.test(ip)) {
    return true;
  }
  return false;
}
function floatSafeRemainder(val, step) {
  const valDecCount = (val.toString().split(".")[1] || "").length;
  const stepDecCount = (step.toString().split(".")[1] || "").length;
  const decCount = valDecCount > stepDecCount ? valDecCount : stepDecCount;
  const valInt = Number.parseInt(val.toFixed(decCount).replace(".", ""));
  const stepInt = Number.parseInt(step.toFixed(decCount).replace(".", ""));
  return valInt % stepInt / 10 ** decCount;
}
function deepPartialify(schema) {
  if (schema instanceof ZodObject) {
    const newShape = {};
    for (const key in schema.shape) {
      const fieldSchema = schema.shape[key];
      newShape[key] = ZodOptional.create(deepPartialify(fieldSchema));
    }
    return new ZodObject({
      ...schema._def,
      shape: () => newShape
    });
  } else if (schema instanceof ZodArray) {
    return new ZodArray({
      ...schema._def,
      type: deepPartialify(schema.element)
    });
  } else if (schema instanceof ZodOptional) {
    return ZodOptional.create(deepPartialify(schema.unwrap()));
  } else if (schema instanceof ZodNullable) {
    return ZodNullable.create(deepPartialify(schema.unwrap()));
  } else if (schema instanceof ZodTuple) {
    return ZodTuple.create(schema.items.map((item) => deepPartialify(item)));
  } else {
    return schema;
  }
}
function mergeValues(a, b) {
  const aType = getParsedType(a);
  const bType = getParsedType(b);
  if (a === b) {
    return { valid: true, data: a };
  } else if (aType === ZodParsedType.object && bType === ZodParsedType.object) {
    const bKeys = util.objectKeys(b);
    const sharedKeys = util.objectKeys(a).filter((key) => bKeys.indexOf(key) !== -1);
    const newObj = { ...a, ...b };
    if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
      delete newObj.__proto__;
    for (const key of sharedKeys) {
      if (key === "__proto__")
        continue;
      const sharedValue = mergeValues(a[key], b[key]);
      if (!sharedValue.valid) {
        return { valid: false };
      }
      newObj[key] = sharedValue.data;
    }
    return { valid: true, data: newObj };
  } else if (aType === ZodParsedType.array && bType === ZodParsedType.array) {
    if (a.length !== b.length) {
      return { valid: false };
    }
    const newArray = [];
    for (let index = 0; index < a.length; index++) {
      const itemA = a[index];
      const itemB = b[index];
      const sharedValue = mergeValues(itemA, itemB);
      if (!sharedValue.valid) {
        return { valid: false };
      }
      newArray.push(sharedValue.data);
    }
    return { valid: true, data: newArray };
  } else if (aType === ZodParsedType.date && bType === ZodParsedType.date && +a === +b) {
    return { valid: true, data: a };
  } else {
    return { valid: false };
  }
}
function createZodEnum(values, params) {
  return new ZodEnum({
    values,
    typeName: ZodFirstPartyTypeKind.ZodEnum,
    ...processCreateParams(params)
  });
}
function cleanParams(params, data) {
  const p = typeof params === "function" ? params(data) : typeof params === "string" ? { message: params } : params;
  const p2 = typeof p === "string" ? { message: p } : p;
  return p2;
}
function custom(check, _params = {}, fatal) {
  if (check)
    return ZodAny.create().superRefine((data, ctx) => {
      const r = check(data);
      if (r instanceof Promise) {
        return r.then((r2) => {
          if (!r2) {
            const params = cleanParams(_params, data);
            const _fatal = params.fatal ?? fatal ?? true;
            ctx.addIssue({ code: "custom", ...params, fatal: _fatal });
          }
        });
      }
      if (!r) {
        const params = cleanParams(_params, data);
        const _fatal = params.fatal ?? fatal ?? true;
        ctx.addIssue({ code: "custom", ...params, fatal: _fatal });
      }
      return;
    });
  return ZodAny.create();
}
var ParseInputLazyPath, handleResult, ZodType, cuidRegex, cuid2Regex, ulidRegex, uuidRegex, nanoidRegex, jwtRegex, durationRegex, emailRegex, _emojiRegex, emojiRegex, ipv4Regex, ipv4CidrRegex, ipv6Regex, ipv6CidrRegex, base64Regex, base64urlRegex, dateRegexSource, dateRegex, ZodString, ZodNumber, ZodBigInt, ZodBoolean, ZodDate, ZodSymbol, ZodUndefined, ZodNull, ZodAny, ZodUnknown, ZodNever, ZodVoid, ZodArray, ZodObject, ZodUnion, getDiscriminator, ZodDiscriminatedUnion, ZodIntersection, ZodTuple, ZodRecord, ZodMap, ZodSet, ZodFunction, ZodLazy, ZodLiteral, ZodEnum, ZodNativeEnum, ZodPromise, ZodEffects, ZodOptional, ZodNullable, ZodDefault, ZodCatch, ZodNaN, BRAND, ZodBranded, ZodPipeline, ZodReadonly, late, ZodFirstPartyTypeKind, instanceOfType, stringType, numberType, nanType, bigIntType, booleanType, dateType, symbolType, undefinedType, nullType, anyType, unknownType, neverType, voidType, arrayType, objectType, strictObjectType, unionType, discriminatedUnionType, intersectionType, tupleType, recordType, mapType, setType, functionType, lazyType, literalType, enumType, nativeEnumType, promiseType, effectsType, optionalType, nullableType, preprocessType, pipelineType, ostring, onumber, oboolean, coerce, NEVER;
var init_types = __esm({
  "node_modules/zod/v3/types.js"() {
    init_ZodError();
    init_errors();
    init_errorUtil();
    init_parseUtil();
    init_util();
    ParseInputLazyPath = class {
      constructor(parent, value, path, key) {
        this._cachedPath = [];
        this.parent = parent;
        this.data = value;
        this._path = path;
        this._key = key;
      }
      get path() {
        if (!this._cachedPath.length) {
          if (Array.isArray(this._key)) {
            this._cachedPath.push(...this._path, ...this._key);
          } else {
            this._cachedPath.push(...this._path, this._key);
          }
        }
        return this._cachedPath;
      }
    };
    handleResult = (ctx, result) => {
      if (isValid(result)) {
        return { success: true, data: result.value };
      } else {
        if (!ctx.common.issues.length) {
          throw new Error("Validation failed but no issues detected.");
        }
        return {
          success: false,
          get error() {
            if (this._error)
              return this._error;
            const error = new ZodError(ctx.common.issues);
            this._error = error;
            return this._error;
          }
        };
      }
    };
    ZodType = class {
      get description() {
        return this._def.description;
      }
      _getType(input) {
        return getParsedType(input.data);
      }
      _getOrReturnCtx(input, ctx) {
        return ctx || {
          common: input.parent.common,
          data: input.data,
          parsedType: getParsedType(input.data),
          schemaErrorMap: this._def.errorMap,
          path: input.path,
          parent: input.parent
        };
      }
      _processInputParams(input) {
        return {
          status: new ParseStatus(),
          ctx: {
            common: input.parent.common,
            data: input.data,
            parsedType: getParsedType(input.data),
            schemaErrorMap: this._def.errorMap,
            path: input.path,
            parent: input.parent
          }
        };
      }
      _parseSync(input) {
        const result = this._parse(input);
        if (isAsync(result)) {
          throw new Error("Synchronous parse encountered promise.");
        }
        return result;
      }
      _parseAsync(input) {
        const result = this._parse(input);
        return Promise.resolve(result);
      }
      parse(data, params) {
        const result = this.safeParse(data, params);
        if (result.success)
          return result.data;
        throw result.error;
      }
      safeParse(data, params) {
        const ctx = {
          common: {
            issues: [],
            async: params?.async ?? false,
            contextualErrorMap: params?.errorMap
          },
          path: params?.path || [],
          schemaErrorMap: this._def.errorMap,
          parent: null,
          data,
          parsedType: getParsedType(data)
        };
        const result = this._parseSync({ data, path: ctx.path, parent: ctx });
        return handleResult(ctx, result);
      }
      "~validate"(data) {
        const ctx = {
          common: {
            issues: [],
            async: !!this["~standard"].async
          },
          path: [],
          schemaErrorMap: this._def.errorMap,
          parent: null,
          data,
          parsedType: getParsedType(data)
        };
        if (!this["~standard"].async) {
          try {
            const result = this._parseSync({ data, path: [], parent: ctx });
            return isValid(result) ? {
              value: result.value
            } : {
              issues: ctx.common.issues
            };
          } catch (err) {
            if (err?.message?.toLowerCase()?.includes("encountered")) {
              this["~standard"].async = true;
            }
            ctx.common = {
              issues: [],
              async: true
            };
          }
        }
        return this._parseAsync({ data, path: [], parent: ctx }).then((result) => isValid(result) ? {
          value: result.value
        } : {
          issues: ctx.common.issues
        });
      }
      async parseAsync(data, params) {
        const result = await this.safeParseAsync(data, params);
        if (result.success)
          return result.data;
        throw result.error;
      }
      async safeParseAsync(data, params) {
        const ctx = {
          common: {
            issues: [],
            contextualErrorMap: params?.errorMap,
            async: true
          },
          path: params?.path || [],
          schemaErrorMap: this._def.errorMap,
          parent: null,
          data,
          parsedType: getParsedType(data)
        };
        const maybeAsyncResult = this._parse({ data, path: ctx.path, parent: ctx });
        const result = await (isAsync(maybeAsyncResult) ? maybeAsyncResult : Promise.resolve(maybeAsyncResult));
        return handleResult(ctx, result);
      }
      refine(check, message) {
        const getIssueProperties = (val) => {
          if (typeof message === "string" || typeof message === "undefined") {
            return { message };
          } else if (typeof message === "function") {
            return message(val);
          } else {
            return message;
          }
        };
        return this._refinement((val, ctx) => {
          const result = check(val);
          const setError = () => ctx.addIssue({
            code: ZodIssueCode.custom,
            ...getIssueProperties(val)
          });
          if (typeof Promise !== "undefined" && result instanceof Promise) {
            return result.then((data) => {
              if (!data) {
                setError();
                return false;
              } else {
                return true;
              }
            });
          }
          if (!result) {
            setError();
            return false;
          } else {
            return true;
          }
        });
      }
      refinement(check, refinementData) {
        return this._refinement((val, ctx) => {
          if (!check(val)) {
            ctx.addIssue(typeof refinementData === "function" ? refinementData(val, ctx) : refinementData);
            return false;
          } else {
            return true;
          }
        });
      }
      _refinement(refinement) {
        return new ZodEffects({
          schema: this,
          typeName: ZodFirstPartyTypeKind.ZodEffects,
          effect: { type: "refinement", refinement }
        });
      }
      superRefine(refinement) {
        return this._refinement(refinement);
      }
      constructor(def) {
        this.spa = this.safeParseAsync;
        this._def = def;
        this.parse = this.parse.bind(this);
        this.safeParse = this.safeParse.bind(this);
        this.parseAsync = this.parseAsync.bind(this);
        this.safeParseAsync = this.safeParseAsync.bind(this);
        this.spa = this.spa.bind(this);
        this.refine = this.refine.bind(this);
        this.refinement = this.refinement.bind(this);
        this.superRefine = this.superRefine.bind(this);
        this.optional = this.optional.bind(this);
        this.nullable = this.nullable.bind(this);
        this.nullish = this.nullish.bind(this);
        this.array = this.array.bind(this);
        this.promise = this.promise.bind(this);
        this.or = this.or.bind(this);
        this.and = this.and.bind(this);
        this.transform = this.transform.bind(this);
        this.brand = this.brand.bind(this);
        this.default = this.default.bind(this);
        this.catch = this.catch.bind(this);
        this.describe = this.describe.bind(this);
        this.pipe = this.pipe.bind(this);
        this.readonly = this.readonly.bind(this);
        this.isNullable = this.isNullable.bind(this);
        this.isOptional = this.isOptional.bind(this);
        this["~standard"] = {
          version: 1,
          vendor: "zod",
          validate: (data) => this["~validate"](data)
        };
      }
      optional() {
        return ZodOptional.create(this, this._def);
      }
      nullable() {
        return ZodNullable.create(this, this._def);
      }
      nullish() {
        return this.nullable().optional();
      }
      array() {
        return ZodArray.create(this);
      }
      promise() {
        return ZodPromise.create(this, this._def);
      }
      or(option) {
        return ZodUnion.create([this, option], this._def);
      }
      and(incoming) {
        return ZodIntersection.create(this, incoming, this._def);
      }
      transform(transform) {
        return new ZodEffects({
          ...processCreateParams(this._def),
          schema: this,
          typeName: ZodFirstPartyTypeKind.ZodEffects,
          effect: { type: "transform", transform }
        });
      }
      default(def) {
        const defaultValueFunc = typeof def === "function" ? def : () => def;
        return new ZodDefault({
          ...processCreateParams(this._def),
          innerType: this,
          defaultValue: defaultValueFunc,
          typeName: ZodFirstPartyTypeKind.ZodDefault
        });
      }
      brand() {
        return new ZodBranded({
          typeName: ZodFirstPartyTypeKind.ZodBranded,
          type: this,
          ...processCreateParams(this._def)
        });
      }
      catch(def) {
        const catchValueFunc = typeof def === "function" ? def : () => def;
        return new ZodCatch({
          ...processCreateParams(this._def),
          innerType: this,
          catchValue: catchValueFunc,
          typeName: ZodFirstPartyTypeKind.ZodCatch
        });
      }
      describe(description) {
        const This = this.constructor;
        return new This({
          ...this._def,
          description
        });
      }
      pipe(target) {
        return ZodPipeline.create(this, target);
      }
      readonly() {
        return ZodReadonly.create(this);
      }
      isOptional() {
        return this.safeParse(void 0).success;
      }
      isNullable() {
        return this.safeParse(null).success;
      }
    };
    cuidRegex = /^c[^\s-]{8,}$/i;
    cuid2Regex = /^[0-9a-z]+$/;
    ulidRegex = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
    uuidRegex = /^[0-9a-fA-F]{8}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{12}$/i;
    nanoidRegex = /^[a-z0-9_-]{21}$/i;
    jwtRegex = /^[A-Za-z0-9-_]+\.[A-Za-z0-9-_]+\.[A-Za-z0-9-_]*$/;
    durationRegex = /^[-+]?P(?!$)(?:(?:[-+]?\d+Y)|(?:[-+]?\d+[.,]\d+Y$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:(?:[-+]?\d+W)|(?:[-+]?\d+[.,]\d+W$))?(?:(?:[-+]?\d+D)|(?:[-+]?\d+[.,]\d+D$))?(?:T(?=[\d+-])(?:(?:[-+]?\d+H)|(?:[-+]?\d+[.,]\d+H$))?(?:(?:[-+]?\d+M)|(?:[-+]?\d+[.,]\d+M$))?(?:[-+]?\d+(?:[.,]\d+)?S)?)??$/;
    emailRegex = /^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-\.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9\-]*\.)+[A-Z]{2,}$/i;
    _emojiRegex = `^[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
    ipv4Regex = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
    ipv4CidrRegex = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/(3[0-2]|[12]?[0-9])$/;
    ipv6Regex = /^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(:[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]{1,}|::(ffff(:0{1,4}){0,1}:){0,1}((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9]))$/;
    ipv6CidrRegex = /^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(:[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]{1,}|::(ffff(:0{1,4}){0,1}:){0,1}((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9]))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
    base64Regex = /^([0-9a-zA-Z+/]{4})*(([0-9a-zA-Z+/]{2}==)|([0-9a-zA-Z+/]{3}=))?$/;
    base64urlRegex = /^([0-9a-zA-Z-_]{4})*(([0-9a-zA-Z-_]{2}(==)?)|([0-9a-zA-Z-_]{3}(=)?))?$/;
    dateRegexSource = `((\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-((0[13578]|1[02])-(0[1-9]|[12]\\d|3[01])|(0[469]|11)-(0[1-9]|[12]\\d|30)|(02)-(0[1-9]|1\\d|2[0-8])))`;
    dateRegex = new RegExp(`^${dateRegexSource}$`);
    ZodString = class _ZodString extends ZodType {
      _parse(input) {
        if (this._def.coerce) {
          input.data = String(input.data);
        }
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.string) {
          const ctx2 = this._getOrReturnCtx(input);
          addIssueToContext(ctx2, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.string,
            received: ctx2.parsedType
          });
          return INVALID;
        }
        const status = new ParseStatus();
        let ctx = void 0;
        for (const check of this._def.checks) {
          if (check.kind === "min") {
            if (input.data.length < check.value) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_small,
                minimum: check.value,
                type: "string",
                inclusive: true,
                exact: false,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "max") {
            if (input.data.length > check.value) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_big,
                maximum: check.value,
                type: "string",
                inclusive: true,
                exact: false,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "length") {
            const tooBig = input.data.length > check.value;
            const tooSmall = input.data.length < check.value;
            if (tooBig || tooSmall) {
              ctx = this._getOrReturnCtx(input, ctx);
              if (tooBig) {
                addIssueToContext(ctx, {
                  code: ZodIssueCode.too_big,
                  maximum: check.value,
                  type: "string",
                  inclusive: true,
                  exact: true,
                  message: check.message
                });
              } else if (tooSmall) {
                addIssueToContext(ctx, {
                  code: ZodIssueCode.too_small,
                  minimum: check.value,
                  type: "string",
                  inclusive: true,
                  exact: true,
                  message: check.message
                });
              }
              status.dirty();
            }
          } else if (check.kind === "email") {
            if (!emailRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "email",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "emoji") {
            if (!emojiRegex) {
              emojiRegex = new RegExp(_emojiRegex, "u");
            }
            if (!emojiRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "emoji",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "uuid") {
            if (!uuidRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "uuid",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "nanoid") {
            if (!nanoidRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "nanoid",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "cuid") {
            if (!cuidRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "cuid",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "cuid2") {
            if (!cuid2Regex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "cuid2",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "ulid") {
            if (!ulidRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "ulid",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "url") {
            try {
              new URL(input.data);
            } catch {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "url",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "regex") {
            check.regex.lastIndex = 0;
            const testResult = check.regex.test(input.data);
            if (!testResult) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "regex",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "trim") {
            input.data = input.data.trim();
          } else if (check.kind === "includes") {
            if (!input.data.includes(check.value, check.position)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.invalid_string,
                validation: { includes: check.value, position: check.position },
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "toLowerCase") {
            input.data = input.data.toLowerCase();
          } else if (check.kind === "toUpperCase") {
            input.data = input.data.toUpperCase();
          } else if (check.kind === "startsWith") {
            if (!input.data.startsWith(check.value)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.invalid_string,
                validation: { startsWith: check.value },
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "endsWith") {
            if (!input.data.endsWith(check.value)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.invalid_string,
                validation: { endsWith: check.value },
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "datetime") {
            const regex = datetimeRegex(check);
            if (!regex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.invalid_string,
                validation: "datetime",
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "date") {
            const regex = dateRegex;
            if (!regex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.invalid_string,
                validation: "date",
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "time") {
            const regex = timeRegex(check);
            if (!regex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.invalid_string,
                validation: "time",
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "duration") {
            if (!durationRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "duration",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "ip") {
            if (!isValidIP(input.data, check.version)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "ip",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "jwt") {
            if (!isValidJWT(input.data, check.alg)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "jwt",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "cidr") {
            if (!isValidCidr(input.data, check.version)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "cidr",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "base64") {
            if (!base64Regex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "base64",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "base64url") {
            if (!base64urlRegex.test(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                validation: "base64url",
                code: ZodIssueCode.invalid_string,
                message: check.message
              });
              status.dirty();
            }
          } else {
            util.assertNever(check);
          }
        }
        return { status: status.value, value: input.data };
      }
      _regex(regex, validation, message) {
        return this.refinement((data) => regex.test(data), {
          validation,
          code: ZodIssueCode.invalid_string,
          ...errorUtil.errToObj(message)
        });
      }
      _addCheck(check) {
        return new _ZodString({
          ...this._def,
          checks: [...this._def.checks, check]
        });
      }
      email(message) {
        return this._addCheck({ kind: "email", ...errorUtil.errToObj(message) });
      }
      url(message) {
        return this._addCheck({ kind: "url", ...errorUtil.errToObj(message) });
      }
      emoji(message) {
        return this._addCheck({ kind: "emoji", ...errorUtil.errToObj(message) });
      }
      uuid(message) {
        return this._addCheck({ kind: "uuid", ...errorUtil.errToObj(message) });
      }
      nanoid(message) {
        return this._addCheck({ kind: "nanoid", ...errorUtil.errToObj(message) });
      }
      cuid(message) {
        return this._addCheck({ kind: "cuid", ...errorUtil.errToObj(message) });
      }
      cuid2(message) {
        return this._addCheck({ kind: "cuid2", ...errorUtil.errToObj(message) });
      }
      ulid(message) {
        return this._addCheck({ kind: "ulid", ...errorUtil.errToObj(message) });
      }
      base64(message) {
        return this._addCheck({ kind: "base64", ...errorUtil.errToObj(message) });
      }
      base64url(message) {
        return this._addCheck({
          kind: "base64url",
          ...errorUtil.errToObj(message)
        });
      }
      jwt(options2) {
        return this._addCheck({ kind: "jwt", ...errorUtil.errToObj(options2) });
      }
      ip(options2) {
        return this._addCheck({ kind: "ip", ...errorUtil.errToObj(options2) });
      }
      cidr(options2) {
        return this._addCheck({ kind: "cidr", ...errorUtil.errToObj(options2) });
      }
      datetime(options2) {
        if (typeof options2 === "string") {
          return this._addCheck({
            kind: "datetime",
            precision: null,
            offset: false,
            local: false,
            message: options2
          });
        }
        return this._addCheck({
          kind: "datetime",
          precision: typeof options2?.precision === "undefined" ? null : options2?.precision,
          offset: options2?.offset ?? false,
          local: options2?.local ?? false,
          ...errorUtil.errToObj(options2?.message)
        });
      }
      date(message) {
        return this._addCheck({ kind: "date", message });
      }
      time(options2) {
        if (typeof options2 === "string") {
          return this._addCheck({
            kind: "time",
            precision: null,
            message: options2
          });
        }
        return this._addCheck({
          kind: "time",
          precision: typeof options2?.precision === "undefined" ? null : options2?.precision,
          ...errorUtil.errToObj(options2?.message)
        });
      }
      duration(message) {
        return this._addCheck({ kind: "duration", ...errorUtil.errToObj(message) });
      }
      regex(regex, message) {
        return this._addCheck({
          kind: "regex",
          regex,
          ...errorUtil.errToObj(message)
        });
      }
      includes(value, options2) {
        return this._addCheck({
          kind: "includes",
          value,
          position: options2?.position,
          ...errorUtil.errToObj(options2?.message)
        });
      }
      startsWith(value, message) {
        return this._addCheck({
          kind: "startsWith",
          value,
          ...errorUtil.errToObj(message)
        });
      }
      endsWith(value, message) {
        return this._addCheck({
          kind: "endsWith",
          value,
          ...errorUtil.errToObj(message)
        });
      }
      min(minLength, message) {
        return this._addCheck({
          kind: "min",
          value: minLength,
          ...errorUtil.errToObj(message)
        });
      }
      max(maxLength, message) {
        return this._addCheck({
          kind: "max",
          value: maxLength,
          ...errorUtil.errToObj(message)
        });
      }
      length(len, message) {
        return this._addCheck({
          kind: "length",
          value: len,
          ...errorUtil.errToObj(message)
        });
      }
      /**
       * Equivalent to `.min(1)`
       */
      nonempty(message) {
        return this.min(1, errorUtil.errToObj(message));
      }
      trim() {
        return new _ZodString({
          ...this._def,
          checks: [...this._def.checks, { kind: "trim" }]
        });
      }
      toLowerCase() {
        return new _ZodString({
          ...this._def,
          checks: [...this._def.checks, { kind: "toLowerCase" }]
        });
      }
      toUpperCase() {
        return new _ZodString({
          ...this._def,
          checks: [...this._def.checks, { kind: "toUpperCase" }]
        });
      }
      get isDatetime() {
        return !!this._def.checks.find((ch) => ch.kind === "datetime");
      }
      get isDate() {
        return !!this._def.checks.find((ch) => ch.kind === "date");
      }
      get isTime() {
        return !!this._def.checks.find((ch) => ch.kind === "time");
      }
      get isDuration() {
        return !!this._def.checks.find((ch) => ch.kind === "duration");
      }
      get isEmail() {
        return !!this._def.checks.find((ch) => ch.kind === "email");
      }
      get isURL() {
        return !!this._def.checks.find((ch) => ch.kind === "url");
      }
      get isEmoji() {
        return !!this._def.checks.find((ch) => ch.kind === "emoji");
      }
      get isUUID() {
        return !!this._def.checks.find((ch) => ch.kind === "uuid");
      }
      get isNANOID() {
        return !!this._def.checks.find((ch) => ch.kind === "nanoid");
      }
      get isCUID() {
        return !!this._def.checks.find((ch) => ch.kind === "cuid");
      }
      get isCUID2() {
        return !!this._def.checks.find((ch) => ch.kind === "cuid2");
      }
      get isULID() {
        return !!this._def.checks.find((ch) => ch.kind === "ulid");
      }
      get isIP() {
        return !!this._def.checks.find((ch) => ch.kind === "ip");
      }
      get isCIDR() {
        return !!this._def.checks.find((ch) => ch.kind === "cidr");
      }
      get isBase64() {
        return !!this._def.checks.find((ch) => ch.kind === "base64");
      }
      get isBase64url() {
        return !!this._def.checks.find((ch) => ch.kind === "base64url");
      }
      get minLength() {
        let min = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "min") {
            if (min === null || ch.value > min)
              min = ch.value;
          }
        }
        return min;
      }
      get maxLength() {
        let max = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "max") {
            if (max === null || ch.value < max)
              max = ch.value;
          }
        }
        return max;
      }
    };
    ZodString.create = (params) => {
      return new ZodString({
        checks: [],
        typeName: ZodFirstPartyTypeKind.ZodString,
        coerce: params?.coerce ?? false,
        ...processCreateParams(params)
      });
    };
    ZodNumber = class _ZodNumber extends ZodType {
      constructor() {
        super(...arguments);
        this.min = this.gte;
        this.max = this.lte;
        this.step = this.multipleOf;
      }
      _parse(input) {
        if (this._def.coerce) {
          input.data = Number(input.data);
        }
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.number) {
          const ctx2 = this._getOrReturnCtx(input);
          addIssueToContext(ctx2, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.number,
            received: ctx2.parsedType
          });
          return INVALID;
        }
        let ctx = void 0;
        const status = new ParseStatus();
        for (const check of this._def.checks) {
          if (check.kind === "int") {
            if (!util.isInteger(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.invalid_type,
                expected: "integer",
                received: "float",
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "min") {
            const tooSmall = check.inclusive ? input.data < check.value : input.data <= check.value;
            if (tooSmall) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_small,
                minimum: check.value,
                type: "number",
                inclusive: check.inclusive,
                exact: false,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "max") {
            const tooBig = check.inclusive ? input.data > check.value : input.data >= check.value;
            if (tooBig) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_big,
                maximum: check.value,
                type: "number",
                inclusive: check.inclusive,
                exact: false,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "multipleOf") {
            if (floatSafeRemainder(input.data, check.value) !== 0) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.not_multiple_of,
                multipleOf: check.value,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "finite") {
            if (!Number.isFinite(input.data)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.not_finite,
                message: check.message
              });
              status.dirty();
            }
          } else {
            util.assertNever(check);
          }
        }
        return { status: status.value, value: input.data };
      }
      gte(value, message) {
        return this.setLimit("min", value, true, errorUtil.toString(message));
      }
      gt(value, message) {
        return this.setLimit("min", value, false, errorUtil.toString(message));
      }
      lte(value, message) {
        return this.setLimit("max", value, true, errorUtil.toString(message));
      }
      lt(value, message) {
        return this.setLimit("max", value, false, errorUtil.toString(message));
      }
      setLimit(kind, value, inclusive, message) {
        return new _ZodNumber({
          ...this._def,
          checks: [
            ...this._def.checks,
            {
              kind,
              value,
              inclusive,
              message: errorUtil.toString(message)
            }
          ]
        });
      }
      _addCheck(check) {
        return new _ZodNumber({
          ...this._def,
          checks: [...this._def.checks, check]
        });
      }
      int(message) {
        return this._addCheck({
          kind: "int",
          message: errorUtil.toString(message)
        });
      }
      positive(message) {
        return this._addCheck({
          kind: "min",
          value: 0,
          inclusive: false,
          message: errorUtil.toString(message)
        });
      }
      negative(message) {
        return this._addCheck({
          kind: "max",
          value: 0,
          inclusive: false,
          message: errorUtil.toString(message)
        });
      }
      nonpositive(message) {
        return this._addCheck({
          kind: "max",
          value: 0,
          inclusive: true,
          message: errorUtil.toString(message)
        });
      }
      nonnegative(message) {
        return this._addCheck({
          kind: "min",
          value: 0,
          inclusive: true,
          message: errorUtil.toString(message)
        });
      }
      multipleOf(value, message) {
        return this._addCheck({
          kind: "multipleOf",
          value,
          message: errorUtil.toString(message)
        });
      }
      finite(message) {
        return this._addCheck({
          kind: "finite",
          message: errorUtil.toString(message)
        });
      }
      safe(message) {
        return this._addCheck({
          kind: "min",
          inclusive: true,
          value: Number.MIN_SAFE_INTEGER,
          message: errorUtil.toString(message)
        })._addCheck({
          kind: "max",
          inclusive: true,
          value: Number.MAX_SAFE_INTEGER,
          message: errorUtil.toString(message)
        });
      }
      get minValue() {
        let min = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "min") {
            if (min === null || ch.value > min)
              min = ch.value;
          }
        }
        return min;
      }
      get maxValue() {
        let max = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "max") {
            if (max === null || ch.value < max)
              max = ch.value;
          }
        }
        return max;
      }
      get isInt() {
        return !!this._def.checks.find((ch) => ch.kind === "int" || ch.kind === "multipleOf" && util.isInteger(ch.value));
      }
      get isFinite() {
        let max = null;
        let min = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "finite" || ch.kind === "int" || ch.kind === "multipleOf") {
            return true;
          } else if (ch.kind === "min") {
            if (min === null || ch.value > min)
              min = ch.value;
          } else if (ch.kind === "max") {
            if (max === null || ch.value < max)
              max = ch.value;
          }
        }
        return Number.isFinite(min) && Number.isFinite(max);
      }
    };
    ZodNumber.create = (params) => {
      return new ZodNumber({
        checks: [],
        typeName: ZodFirstPartyTypeKind.ZodNumber,
        coerce: params?.coerce || false,
        ...processCreateParams(params)
      });
    };
    ZodBigInt = class _ZodBigInt extends ZodType {
      constructor() {
        super(...arguments);
        this.min = this.gte;
        this.max = this.lte;
      }
      _parse(input) {
        if (this._def.coerce) {
          try {
            input.data = BigInt(input.data);
          } catch {
            return this._getInvalidInput(input);
          }
        }
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.bigint) {
          return this._getInvalidInput(input);
        }
        let ctx = void 0;
        const status = new ParseStatus();
        for (const check of this._def.checks) {
          if (check.kind === "min") {
            const tooSmall = check.inclusive ? input.data < check.value : input.data <= check.value;
            if (tooSmall) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_small,
                type: "bigint",
                minimum: check.value,
                inclusive: check.inclusive,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "max") {
            const tooBig = check.inclusive ? input.data > check.value : input.data >= check.value;
            if (tooBig) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_big,
                type: "bigint",
                maximum: check.value,
                inclusive: check.inclusive,
                message: check.message
              });
              status.dirty();
            }
          } else if (check.kind === "multipleOf") {
            if (input.data % check.value !== BigInt(0)) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.not_multiple_of,
                multipleOf: check.value,
                message: check.message
              });
              status.dirty();
            }
          } else {
            util.assertNever(check);
          }
        }
        return { status: status.value, value: input.data };
      }
      _getInvalidInput(input) {
        const ctx = this._getOrReturnCtx(input);
        addIssueToContext(ctx, {
          code: ZodIssueCode.invalid_type,
          expected: ZodParsedType.bigint,
          received: ctx.parsedType
        });
        return INVALID;
      }
      gte(value, message) {
        return this.setLimit("min", value, true, errorUtil.toString(message));
      }
      gt(value, message) {
        return this.setLimit("min", value, false, errorUtil.toString(message));
      }
      lte(value, message) {
        return this.setLimit("max", value, true, errorUtil.toString(message));
      }
      lt(value, message) {
        return this.setLimit("max", value, false, errorUtil.toString(message));
      }
      setLimit(kind, value, inclusive, message) {
        return new _ZodBigInt({
          ...this._def,
          checks: [
            ...this._def.checks,
            {
              kind,
              value,
              inclusive,
              message: errorUtil.toString(message)
            }
          ]
        });
      }
      _addCheck(check) {
        return new _ZodBigInt({
          ...this._def,
          checks: [...this._def.checks, check]
        });
      }
      positive(message) {
        return this._addCheck({
          kind: "min",
          value: BigInt(0),
          inclusive: false,
          message: errorUtil.toString(message)
        });
      }
      negative(message) {
        return this._addCheck({
          kind: "max",
          value: BigInt(0),
          inclusive: false,
          message: errorUtil.toString(message)
        });
      }
      nonpositive(message) {
        return this._addCheck({
          kind: "max",
          value: BigInt(0),
          inclusive: true,
          message: errorUtil.toString(message)
        });
      }
      nonnegative(message) {
        return this._addCheck({
          kind: "min",
          value: BigInt(0),
          inclusive: true,
          message: errorUtil.toString(message)
        });
      }
      multipleOf(value, message) {
        return this._addCheck({
          kind: "multipleOf",
          value,
          message: errorUtil.toString(message)
        });
      }
      get minValue() {
        let min = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "min") {
            if (min === null || ch.value > min)
              min = ch.value;
          }
        }
        return min;
      }
      get maxValue() {
        let max = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "max") {
            if (max === null || ch.value < max)
              max = ch.value;
          }
        }
        return max;
      }
    };
    ZodBigInt.create = (params) => {
      return new ZodBigInt({
        checks: [],
        typeName: ZodFirstPartyTypeKind.ZodBigInt,
        coerce: params?.coerce ?? false,
        ...processCreateParams(params)
      });
    };
    ZodBoolean = class extends ZodType {
      _parse(input) {
        if (this._def.coerce) {
          input.data = Boolean(input.data);
        }
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.boolean) {
          const ctx = this._getOrReturnCtx(input);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.boolean,
            received: ctx.parsedType
          });
          return INVALID;
        }
        return OK(input.data);
      }
    };
    ZodBoolean.create = (params) => {
      return new ZodBoolean({
        typeName: ZodFirstPartyTypeKind.ZodBoolean,
        coerce: params?.coerce || false,
        ...processCreateParams(params)
      });
    };
    ZodDate = class _ZodDate extends ZodType {
      _parse(input) {
        if (this._def.coerce) {
          input.data = new Date(input.data);
        }
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.date) {
          const ctx2 = this._getOrReturnCtx(input);
          addIssueToContext(ctx2, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.date,
            received: ctx2.parsedType
          });
          return INVALID;
        }
        if (Number.isNaN(input.data.getTime())) {
          const ctx2 = this._getOrReturnCtx(input);
          addIssueToContext(ctx2, {
            code: ZodIssueCode.invalid_date
          });
          return INVALID;
        }
        const status = new ParseStatus();
        let ctx = void 0;
        for (const check of this._def.checks) {
          if (check.kind === "min") {
            if (input.data.getTime() < check.value) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_small,
                message: check.message,
                inclusive: true,
                exact: false,
                minimum: check.value,
                type: "date"
              });
              status.dirty();
            }
          } else if (check.kind === "max") {
            if (input.data.getTime() > check.value) {
              ctx = this._getOrReturnCtx(input, ctx);
              addIssueToContext(ctx, {
                code: ZodIssueCode.too_big,
                message: check.message,
                inclusive: true,
                exact: false,
                maximum: check.value,
                type: "date"
              });
              status.dirty();
            }
          } else {
            util.assertNever(check);
          }
        }
        return {
          status: status.value,
          value: new Date(input.data.getTime())
        };
      }
      _addCheck(check) {
        return new _ZodDate({
          ...this._def,
          checks: [...this._def.checks, check]
        });
      }
      min(minDate, message) {
        return this._addCheck({
          kind: "min",
          value: minDate.getTime(),
          message: errorUtil.toString(message)
        });
      }
      max(maxDate, message) {
        return this._addCheck({
          kind: "max",
          value: maxDate.getTime(),
          message: errorUtil.toString(message)
        });
      }
      get minDate() {
        let min = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "min") {
            if (min === null || ch.value > min)
              min = ch.value;
          }
        }
        return min != null ? new Date(min) : null;
      }
      get maxDate() {
        let max = null;
        for (const ch of this._def.checks) {
          if (ch.kind === "max") {
            if (max === null || ch.value < max)
              max = ch.value;
          }
        }
        return max != null ? new Date(max) : null;
      }
    };
    ZodDate.create = (params) => {
      return new ZodDate({
        checks: [],
        coerce: params?.coerce || false,
        typeName: ZodFirstPartyTypeKind.ZodDate,
        ...processCreateParams(params)
      });
    };
    ZodSymbol = class extends ZodType {
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.symbol) {
          const ctx = this._getOrReturnCtx(input);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.symbol,
            received: ctx.parsedType
          });
          return INVALID;
        }
        return OK(input.data);
      }
    };
    ZodSymbol.create = (params) => {
      return new ZodSymbol({
        typeName: ZodFirstPartyTypeKind.ZodSymbol,
        ...processCreateParams(params)
      });
    };
    ZodUndefined = class extends ZodType {
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.undefined) {
          const ctx = this._getOrReturnCtx(input);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.undefined,
            received: ctx.parsedType
          });
          return INVALID;
        }
        return OK(input.data);
      }
    };
    ZodUndefined.create = (params) => {
      return new ZodUndefined({
        typeName: ZodFirstPartyTypeKind.ZodUndefined,
        ...processCreateParams(params)
      });
    };
    ZodNull = class extends ZodType {
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.null) {
          const ctx = this._getOrReturnCtx(input);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.null,
            received: ctx.parsedType
          });
          return INVALID;
        }
        return OK(input.data);
      }
    };
    ZodNull.create = (params) => {
      return new ZodNull({
        typeName: ZodFirstPartyTypeKind.ZodNull,
        ...processCreateParams(params)
      });
    };
    ZodAny = class extends ZodType {
      constructor() {
        super(...arguments);
        this._any = true;
      }
      _parse(input) {
        return OK(input.data);
      }
    };
    ZodAny.create = (params) => {
      return new ZodAny({
        typeName: ZodFirstPartyTypeKind.ZodAny,
        ...processCreateParams(params)
      });
    };
    ZodUnknown = class extends ZodType {
      constructor() {
        super(...arguments);
        this._unknown = true;
      }
      _parse(input) {
        return OK(input.data);
      }
    };
    ZodUnknown.create = (params) => {
      return new ZodUnknown({
        typeName: ZodFirstPartyTypeKind.ZodUnknown,
        ...processCreateParams(params)
      });
    };
    ZodNever = class extends ZodType {
      _parse(input) {
        const ctx = this._getOrReturnCtx(input);
        addIssueToContext(ctx, {
          code: ZodIssueCode.invalid_type,
          expected: ZodParsedType.never,
          received: ctx.parsedType
        });
        return INVALID;
      }
    };
    ZodNever.create = (params) => {
      return new ZodNever({
        typeName: ZodFirstPartyTypeKind.ZodNever,
        ...processCreateParams(params)
      });
    };
    ZodVoid = class extends ZodType {
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.undefined) {
          const ctx = this._getOrReturnCtx(input);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.void,
            received: ctx.parsedType
          });
          return INVALID;
        }
        return OK(input.data);
      }
    };
    ZodVoid.create = (params) => {
      return new ZodVoid({
        typeName: ZodFirstPartyTypeKind.ZodVoid,
        ...processCreateParams(params)
      });
    };
    ZodArray = class _ZodArray extends ZodType {
      _parse(input) {
        const { ctx, status } = this._processInputParams(input);
        const def = this._def;
        if (ctx.parsedType !== ZodParsedType.array) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.array,
            received: ctx.parsedType
          });
          return INVALID;
        }
        if (def.exactLength !== null) {
          const tooBig = ctx.data.length > def.exactLength.value;
          const tooSmall = ctx.data.length < def.exactLength.value;
          if (tooBig || tooSmall) {
            addIssueToContext(ctx, {
              code: tooBig ? ZodIssueCode.too_big : ZodIssueCode.too_small,
              minimum: tooSmall ? def.exactLength.value : void 0,
              maximum: tooBig ? def.exactLength.value : void 0,
              type: "array",
              inclusive: true,
              exact: true,
              message: def.exactLength.message
            });
            status.dirty();
          }
        }
        if (def.minLength !== null) {
          if (ctx.data.length < def.minLength.value) {
            addIssueToContext(ctx, {
              code: ZodIssueCode.too_small,
              minimum: def.minLength.value,
              type: "array",
              inclusive: true,
              exact: false,
              message: def.minLength.message
            });
            status.dirty();
          }
        }
        if (def.maxLength !== null) {
          if (ctx.data.length > def.maxLength.value) {
            addIssueToContext(ctx, {
              code: ZodIssueCode.too_big,
              maximum: def.maxLength.value,
              type: "array",
              inclusive: true,
              exact: false,
              message: def.maxLength.message
            });
            status.dirty();
          }
        }
        if (ctx.common.async) {
          return Promise.all([...ctx.data].map((item, i) => {
            return def.type._parseAsync(new ParseInputLazyPath(ctx, item, ctx.path, i));
          })).then((result2) => {
            return ParseStatus.mergeArray(status, result2);
          });
        }
        const result = [...ctx.data].map((item, i) => {
          return def.type._parseSync(new ParseInputLazyPath(ctx, item, ctx.path, i));
        });
        return ParseStatus.mergeArray(status, result);
      }
      get element() {
        return this._def.type;
      }
      min(minLength, message) {
        return new _ZodArray({
          ...this._def,
          minLength: { value: minLength, message: errorUtil.toString(message) }
        });
      }
      max(maxLength, message) {
        return new _ZodArray({
          ...this._def,
          maxLength: { value: maxLength, message: errorUtil.toString(message) }
        });
      }
      length(len, message) {
        return new _ZodArray({
          ...this._def,
          exactLength: { value: len, message: errorUtil.toString(message) }
        });
      }
      nonempty(message) {
        return this.min(1, message);
      }
    };
    ZodArray.create = (schema, params) => {
      return new ZodArray({
        type: schema,
        minLength: null,
        maxLength: null,
        exactLength: null,
        typeName: ZodFirstPartyTypeKind.ZodArray,
        ...processCreateParams(params)
      });
    };
    ZodObject = class _ZodObject extends ZodType {
      constructor() {
        super(...arguments);
        this._cached = null;
        this.nonstrict = this.passthrough;
        this.augment = this.extend;
      }
      _getCached() {
        if (this._cached !== null)
          return this._cached;
        const shape = this._def.shape();
        const keys = util.objectKeys(shape);
        this._cached = { shape, keys };
        return this._cached;
      }
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.object) {
          const ctx2 = this._getOrReturnCtx(input);
          addIssueToContext(ctx2, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.object,
            received: ctx2.parsedType
          });
          return INVALID;
        }
        const { status, ctx } = this._processInputParams(input);
        const { shape, keys: shapeKeys } = this._getCached();
        const extraKeys = [];
        if (!(this._def.catchall instanceof ZodNever && this._def.unknownKeys === "strip")) {
          for (const key in ctx.data) {
            if (!shapeKeys.includes(key)) {
              extraKeys.push(key);
            }
          }
        }
        const pairs = [];
        for (const key of shapeKeys) {
          const keyValidator = shape[key];
          const value = ctx.data[key];
          pairs.push({
            key: { status: "valid", value: key },
            value: keyValidator._parse(new ParseInputLazyPath(ctx, value, ctx.path, key)),
            alwaysSet: key in ctx.data
          });
        }
        if (this._def.catchall instanceof ZodNever) {
          const unknownKeys = this._def.unknownKeys;
          if (unknownKeys === "passthrough") {
            for (const key of extraKeys) {
              pairs.push({
                key: { status: "valid", value: key },
                value: { status: "valid", value: ctx.data[key] }
              });
            }
          } else if (unknownKeys === "strict") {
            if (extraKeys.length > 0) {
              addIssueToContext(ctx, {
                code: ZodIssueCode.unrecognized_keys,
                keys: extraKeys
              });
              status.dirty();
            }
          } else if (unknownKeys === "strip") {
          } else {
            throw new Error(`Internal ZodObject error: invalid unknownKeys value.`);
          }
        } else {
          const catchall = this._def.catchall;
          for (const key of extraKeys) {
            const value = ctx.data[key];
            pairs.push({
              key: { status: "valid", value: key },
              value: catchall._parse(
                new ParseInputLazyPath(ctx, value, ctx.path, key)
                //, ctx.child(key), value, getParsedType(value)
              ),
              alwaysSet: key in ctx.data
            });
          }
        }
        if (ctx.common.async) {
          return Promise.resolve().then(async () => {
            const syncPairs = [];
            for (const pair of pairs) {
              const key = await pair.key;
              const value = await pair.value;
              syncPairs.push({
                key,
                value,
                alwaysSet: pair.alwaysSet
              });
            }
            return syncPairs;
          }).then((syncPairs) => {
            return ParseStatus.mergeObjectSync(status, syncPairs);
          });
        } else {
          return ParseStatus.mergeObjectSync(status, pairs);
        }
      }
      get shape() {
        return this._def.shape();
      }
      strict(message) {
        errorUtil.errToObj;
        return new _ZodObject({
          ...this._def,
          unknownKeys: "strict",
          ...message !== void 0 ? {
            errorMap: (issue, ctx) => {
              const defaultError = this._def.errorMap?.(issue, ctx).message ?? ctx.defaultError;
              if (issue.code === "unrecognized_keys")
                return {
                  message: errorUtil.errToObj(message).message ?? defaultError
                };
              return {
                message: defaultError
              };
            }
          } : {}
        });
      }
      strip() {
        return new _ZodObject({
          ...this._def,
          unknownKeys: "strip"
        });
      }
      passthrough() {
        return new _ZodObject({
          ...this._def,
          unknownKeys: "passthrough"
        });
      }
      // const AugmentFactory =
      //   <Def extends ZodObjectDef>(def: Def) =>
      //   <Augmentation extends ZodRawShape>(
      //     augmentation: Augmentation
      //   ): ZodObject<
      //     extendShape<ReturnType<Def["shape"]>, Augmentation>,
      //     Def["unknownKeys"],
      //     Def["catchall"]
      //   > => {
      //     return new ZodObject({
      //       ...def,
      //       shape: () => ({
      //         ...def.shape(),
      //         ...augmentation,
      //       }),
      //     }) as any;
      //   };
      extend(augmentation) {
        return new _ZodObject({
          ...this._def,
          shape: () => ({
            ...this._def.shape(),
            ...augmentation
          })
        });
      }
      /**
       * Prior to zod@1.0.12 there was a bug in the
       * inferred type of merged objects. Please
       * upgrade if you are experiencing issues.
       */
      merge(merging) {
        const merged = new _ZodObject({
          unknownKeys: merging._def.unknownKeys,
          catchall: merging._def.catchall,
          shape: () => ({
            ...this._def.shape(),
            ...merging._def.shape()
          }),
          typeName: ZodFirstPartyTypeKind.ZodObject
        });
        return merged;
      }
      // merge<
      //   Incoming extends AnyZodObject,
      //   Augmentation extends Incoming["shape"],
      //   NewOutput extends {
      //     [k in keyof Augmentation | keyof Output]: k extends keyof Augmentation
      //       ? Augmentation[k]["_output"]
      //       : k extends keyof Output
      //       ? Output[k]
      //       : never;
      //   },
      //   NewInput extends {
      //     [k in keyof Augmentation | keyof Input]: k extends keyof Augmentation
      //       ? Augmentation[k]["_input"]
      //       : k extends keyof Input
      //       ? Input[k]
      //       : never;
      //   }
      // >(
      //   merging: Incoming
      // ): ZodObject<
      //   extendShape<T, ReturnType<Incoming["_def"]["shape"]>>,
      //   Incoming["_def"]["unknownKeys"],
      //   Incoming["_def"]["catchall"],
      //   NewOutput,
      //   NewInput
      // > {
      //   const merged: any = new ZodObject({
      //     unknownKeys: merging._def.unknownKeys,
      //     catchall: merging._def.catchall,
      //     shape: () =>
      //       objectUtil.mergeShapes(this._def.shape(), merging._def.shape()),
      //     typeName: ZodFirstPartyTypeKind.ZodObject,
      //   }) as any;
      //   return merged;
      // }
      setKey(key, schema) {
        return this.augment({ [key]: schema });
      }
      // merge<Incoming extends AnyZodObject>(
      //   merging: Incoming
      // ): //ZodObject<T & Incoming["_shape"], UnknownKeys, Catchall> = (merging) => {
      // ZodObject<
      //   extendShape<T, ReturnType<Incoming["_def"]["shape"]>>,
      //   Incoming["_def"]["unknownKeys"],
      //   Incoming["_def"]["catchall"]
      // > {
      //   // const mergedShape = objectUtil.mergeShapes(
      //   //   this._def.shape(),
      //   //   merging._def.shape()
      //   // );
      //   const merged: any = new ZodObject({
      //     unknownKeys: merging._def.unknownKeys,
      //     catchall: merging._def.catchall,
      //     shape: () =>
      //       objectUtil.mergeShapes(this._def.shape(), merging._def.shape()),
      //     typeName: ZodFirstPartyTypeKind.ZodObject,
      //   }) as any;
      //   return merged;
      // }
      catchall(index) {
        return new _ZodObject({
          ...this._def,
          catchall: index
        });
      }
      pick(mask) {
        const shape = {};
        for (const key of util.objectKeys(mask)) {
          if (mask[key] && this.shape[key]) {
            shape[key] = this.shape[key];
          }
        }
        return new _ZodObject({
          ...this._def,
          shape: () => shape
        });
      }
      omit(mask) {
        const shape = {};
        for (const key of util.objectKeys(this.shape)) {
          if (!mask[key]) {
            shape[key] = this.shape[key];
          }
        }
        return new _ZodObject({
          ...this._def,
          shape: () => shape
        });
      }
      /**
       * @deprecated
       */
      deepPartial() {
        return deepPartialify(this);
      }
      partial(mask) {
        const newShape = {};
        for (const key of util.objectKeys(this.shape)) {
          const fieldSchema = this.shape[key];
          if (mask && !mask[key]) {
            newShape[key] = fieldSchema;
          } else {
            newShape[key] = fieldSchema.optional();
          }
        }
        return new _ZodObject({
          ...this._def,
          shape: () => newShape
        });
      }
      required(mask) {
        const newShape = {};
        for (const key of util.objectKeys(this.shape)) {
          if (mask && !mask[key]) {
            newShape[key] = this.shape[key];
          } else {
            const fieldSchema = this.shape[key];
            let newField = fieldSchema;
            while (newField instanceof ZodOptional) {
              newField = newField._def.innerType;
            }
            newShape[key] = newField;
          }
        }
        return new _ZodObject({
          ...this._def,
          shape: () => newShape
        });
      }
      keyof() {
        return createZodEnum(util.objectKeys(this.shape));
      }
    };
    ZodObject.create = (shape, params) => {
      return new ZodObject({
        shape: () => shape,
        unknownKeys: "strip",
        catchall: ZodNever.create(),
        typeName: ZodFirstPartyTypeKind.ZodObject,
        ...processCreateParams(params)
      });
    };
    ZodObject.strictCreate = (shape, params) => {
      return new ZodObject({
        shape: () => shape,
        unknownKeys: "strict",
        catchall: ZodNever.create(),
        typeName: ZodFirstPartyTypeKind.ZodObject,
        ...processCreateParams(params)
      });
    };
    ZodObject.lazycreate = (shape, params) => {
      return new ZodObject({
        shape,
        unknownKeys: "strip",
        catchall: ZodNever.create(),
        typeName: ZodFirstPartyTypeKind.ZodObject,
        ...processCreateParams(params)
      });
    };
    ZodUnion = class extends ZodType {
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        const options2 = this._def.options;
        function handleResults(results) {
          for (const result of results) {
            if (result.result.status === "valid") {
              return result.result;
            }
          }
          for (const result of results) {
            if (result.result.status === "dirty") {
              ctx.common.issues.push(...result.ctx.common.issues);
              return result.result;
            }
          }
          const unionErrors = results.map((result) => new ZodError(result.ctx.common.issues));
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_union,
            unionErrors
          });
          return INVALID;
        }
        if (ctx.common.async) {
          return Promise.all(options2.map(async (option) => {
            const childCtx = {
              ...ctx,
              common: {
                ...ctx.common,
                issues: []
              },
              parent: null
            };
            return {
              result: await option._parseAsync({
                data: ctx.data,
                path: ctx.path,
                parent: childCtx
              }),
              ctx: childCtx
            };
          })).then(handleResults);
        } else {
          let dirty = void 0;
          const issues = [];
          for (const option of options2) {
            const childCtx = {
              ...ctx,
              common: {
                ...ctx.common,
                issues: []
              },
              parent: null
            };
            const result = option._parseSync({
              data: ctx.data,
              path: ctx.path,
              parent: childCtx
            });
            if (result.status === "valid") {
              return result;
            } else if (result.status === "dirty" && !dirty) {
              dirty = { result, ctx: childCtx };
            }
            if (childCtx.common.issues.length) {
              issues.push(childCtx.common.issues);
            }
          }
          if (dirty) {
            ctx.common.issues.push(...dirty.ctx.common.issues);
            return dirty.result;
          }
          const unionErrors = issues.map((issues2) => new ZodError(issues2));
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_union,
            unionErrors
          });
          return INVALID;
        }
      }
      get options() {
        return this._def.options;
      }
    };
    ZodUnion.create = (types, params) => {
      return new ZodUnion({
        options: types,
        typeName: ZodFirstPartyTypeKind.ZodUnion,
        ...processCreateParams(params)
      });
    };
    getDiscriminator = (type) => {
      if (type instanceof ZodLazy) {
        return getDiscriminator(type.schema);
      } else if (type instanceof ZodEffects) {
        return getDiscriminator(type.innerType());
      } else if (type instanceof ZodLiteral) {
        return [type.value];
      } else if (type instanceof ZodEnum) {
        return type.options;
      } else if (type instanceof ZodNativeEnum) {
        return util.objectValues(type.enum);
      } else if (type instanceof ZodDefault) {
        return getDiscriminator(type._def.innerType);
      } else if (type instanceof ZodUndefined) {
        return [void 0];
      } else if (type instanceof ZodNull) {
        return [null];
      } else if (type instanceof ZodOptional) {
        return [void 0, ...getDiscriminator(type.unwrap())];
      } else if (type instanceof ZodNullable) {
        return [null, ...getDiscriminator(type.unwrap())];
      } else if (type instanceof ZodBranded) {
        return getDiscriminator(type.unwrap());
      } else if (type instanceof ZodReadonly) {
        return getDiscriminator(type.unwrap());
      } else if (type instanceof ZodCatch) {
        return getDiscriminator(type._def.innerType);
      } else {
        return [];
      }
    };
    ZodDiscriminatedUnion = class _ZodDiscriminatedUnion extends ZodType {
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        if (ctx.parsedType !== ZodParsedType.object) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.object,
            received: ctx.parsedType
          });
          return INVALID;
        }
        const discriminator = this.discriminator;
        const discriminatorValue = ctx.data[discriminator];
        const option = this.optionsMap.get(discriminatorValue);
        if (!option) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_union_discriminator,
            options: Array.from(this.optionsMap.keys()),
            path: [discriminator]
          });
          return INVALID;
        }
        if (ctx.common.async) {
          return option._parseAsync({
            data: ctx.data,
            path: ctx.path,
            parent: ctx
          });
        } else {
          return option._parseSync({
            data: ctx.data,
            path: ctx.path,
            parent: ctx
          });
        }
      }
      get discriminator() {
        return this._def.discriminator;
      }
      get options() {
        return this._def.options;
      }
      get optionsMap() {
        return this._def.optionsMap;
      }
      /**
       * The constructor of the discriminated union schema. Its behaviour is very similar to that of the normal z.union() constructor.
       * However, it only allows a union of objects, all of which need to share a discriminator property. This property must
       * have a different value for each object in the union.
       * @param discriminator the name of the discriminator property
       * @param types an array of object schemas
       * @param params
       */
      static create(discriminator, options2, params) {
        const optionsMap = /* @__PURE__ */ new Map();
        for (const type of options2) {
          const discriminatorValues = getDiscriminator(type.shape[discriminator]);
          if (!discriminatorValues.length) {
            throw new Error(`A discriminator value for key \`${discriminator}\` could not be extracted from all schema options`);
          }
          for (const value of discriminatorValues) {
            if (optionsMap.has(value)) {
              throw new Error(`Discriminator property ${String(discriminator)} has duplicate value ${String(value)}`);
            }
            optionsMap.set(value, type);
          }
        }
        return new _ZodDiscriminatedUnion({
          typeName: ZodFirstPartyTypeKind.ZodDiscriminatedUnion,
          discriminator,
          options: options2,
          optionsMap,
          ...processCreateParams(params)
        });
      }
    };
    ZodIntersection = class extends ZodType {
      _parse(input) {
        const { status, ctx } = this._processInputParams(input);
        const handleParsed = (parsedLeft, parsedRight) => {
          if (isAborted(parsedLeft) || isAborted(parsedRight)) {
            return INVALID;
          }
          const merged = mergeValues(parsedLeft.value, parsedRight.value);
          if (!merged.valid) {
            addIssueToContext(ctx, {
              code: ZodIssueCode.invalid_intersection_types
            });
            return INVALID;
          }
          if (isDirty(parsedLeft) || isDirty(parsedRight)) {
            status.dirty();
          }
          return { status: status.value, value: merged.data };
        };
        if (ctx.common.async) {
          return Promise.all([
            this._def.left._parseAsync({
              data: ctx.data,
              path: ctx.path,
              parent: ctx
            }),
            this._def.right._parseAsync({
              data: ctx.data,
              path: ctx.path,
              parent: ctx
            })
          ]).then(([left, right]) => handleParsed(left, right));
        } else {
          return handleParsed(this._def.left._parseSync({
            data: ctx.data,
            path: ctx.path,
            parent: ctx
          }), this._def.right._parseSync({
            data: ctx.data,
            path: ctx.path,
            parent: ctx
          }));
        }
      }
    };
    ZodIntersection.create = (left, right, params) => {
      return new ZodIntersection({
        left,
        right,
        typeName: ZodFirstPartyTypeKind.ZodIntersection,
        ...processCreateParams(params)
      });
    };
    ZodTuple = class _ZodTuple extends ZodType {
      _parse(input) {
        const { status, ctx } = this._processInputParams(input);
        if (ctx.parsedType !== ZodParsedType.array) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.array,
            received: ctx.parsedType
          });
          return INVALID;
        }
        if (ctx.data.length < this._def.items.length) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_small,
            minimum: this._def.items.length,
            inclusive: true,
            exact: false,
            type: "array"
          });
          return INVALID;
        }
        const rest = this._def.rest;
        if (!rest && ctx.data.length > this._def.items.length) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.too_big,
            maximum: this._def.items.length,
            inclusive: true,
            exact: false,
            type: "array"
          });
          status.dirty();
        }
        const items = [...ctx.data].map((item, itemIndex) => {
          const schema = this._def.items[itemIndex] || this._def.rest;
          if (!schema)
            return null;
          return schema._parse(new ParseInputLazyPath(ctx, item, ctx.path, itemIndex));
        }).filter((x) => !!x);
        if (ctx.common.async) {
          return Promise.all(items).then((results) => {
            return ParseStatus.mergeArray(status, results);
          });
        } else {
          return ParseStatus.mergeArray(status, items);
        }
      }
      get items() {
        return this._def.items;
      }
      rest(rest) {
        return new _ZodTuple({
          ...this._def,
          rest
        });
      }
    };
    ZodTuple.create = (schemas, params) => {
      if (!Array.isArray(schemas)) {
        throw new Error("You must pass an array of schemas to z.tuple([ ... ])");
      }
      return new ZodTuple({
        items: schemas,
        typeName: ZodFirstPartyTypeKind.ZodTuple,
        rest: null,
        ...processCreateParams(params)
      });
    };
    ZodRecord = class _ZodRecord extends ZodType {
      get keySchema() {
        return this._def.keyType;
      }
      get valueSchema() {
        return this._def.valueType;
      }
      _parse(input) {
        const { status, ctx } = this._processInputParams(input);
        if (ctx.parsedType !== ZodParsedType.object) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.object,
            received: ctx.parsedType
          });
          return INVALID;
        }
        const pairs = [];
        const keyType = this._def.keyType;
        const valueType = this._def.valueType;
        for (const key in ctx.data) {
          pairs.push({
            key: keyType._parse(new ParseInputLazyPath(ctx, key, ctx.path, key)),
            value: valueType._parse(new ParseInputLazyPath(ctx, ctx.data[key], ctx.path, key)),
            alwaysSet: key in ctx.data
          });
        }
        if (ctx.common.async) {
          return ParseStatus.mergeObjectAsync(status, pairs);
        } else {
          return ParseStatus.mergeObjectSync(status, pairs);
        }
      }
      get element() {
        return this._def.valueType;
      }
      static create(first, second, third) {
        if (second instanceof ZodType) {
          return new _ZodRecord({
            keyType: first,
            valueType: second,
            typeName: ZodFirstPartyTypeKind.ZodRecord,
            ...processCreateParams(third)
          });
        }
        return new _ZodRecord({
          keyType: ZodString.create(),
          valueType: first,
          typeName: ZodFirstPartyTypeKind.ZodRecord,
          ...processCreateParams(second)
        });
      }
    };
    ZodMap = class extends ZodType {
      get keySchema() {
        return this._def.keyType;
      }
      get valueSchema() {
        return this._def.valueType;
      }
      _parse(input) {
        const { status, ctx } = this._processInputParams(input);
        if (ctx.parsedType !== ZodParsedType.map) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.map,
            received: ctx.parsedType
          });
          return INVALID;
        }
        const keyType = this._def.keyType;
        const valueType = this._def.valueType;
        const pairs = [...ctx.data.entries()].map(([key, value], index) => {
          return {
            key: keyType._parse(new ParseInputLazyPath(ctx, key, ctx.path, [index, "key"])),
            value: valueType._parse(new ParseInputLazyPath(ctx, value, ctx.path, [index, "value"]))
          };
        });
        if (ctx.common.async) {
          const finalMap = /* @__PURE__ */ new Map();
          return Promise.resolve().then(async () => {
            for (const pair of pairs) {
              const key = await pair.key;
              const value = await pair.value;
              if (key.status === "aborted" || value.status === "aborted") {
                return INVALID;
              }
              if (key.status === "dirty" || value.status === "dirty") {
                status.dirty();
              }
              finalMap.set(key.value, value.value);
            }
            return { status: status.value, value: finalMap };
          });
        } else {
          const finalMap = /* @__PURE__ */ new Map();
          for (const pair of pairs) {
            const key = pair.key;
            const value = pair.value;
            if (key.status === "aborted" || value.status === "aborted") {
              return INVALID;
            }
            if (key.status === "dirty" || value.status === "dirty") {
              status.dirty();
            }
            finalMap.set(key.value, value.value);
          }
          return { status: status.value, value: finalMap };
        }
      }
    };
    ZodMap.create = (keyType, valueType, params) => {
      return new ZodMap({
        valueType,
        keyType,
        typeName: ZodFirstPartyTypeKind.ZodMap,
        ...processCreateParams(params)
      });
    };
    ZodSet = class _ZodSet extends ZodType {
      _parse(input) {
        const { status, ctx } = this._processInputParams(input);
        if (ctx.parsedType !== ZodParsedType.set) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.set,
            received: ctx.parsedType
          });
          return INVALID;
        }
        const def = this._def;
        if (def.minSize !== null) {
          if (ctx.data.size < def.minSize.value) {
            addIssueToContext(ctx, {
              code: ZodIssueCode.too_small,
              minimum: def.minSize.value,
              type: "set",
              inclusive: true,
              exact: false,
              message: def.minSize.message
            });
            status.dirty();
          }
        }
        if (def.maxSize !== null) {
          if (ctx.data.size > def.maxSize.value) {
            addIssueToContext(ctx, {
              code: ZodIssueCode.too_big,
              maximum: def.maxSize.value,
              type: "set",
              inclusive: true,
              exact: false,
              message: def.maxSize.message
            });
            status.dirty();
          }
        }
        const valueType = this._def.valueType;
        function finalizeSet(elements2) {
          const parsedSet = /* @__PURE__ */ new Set();
          for (const element of elements2) {
            if (element.status === "aborted")
              return INVALID;
            if (element.status === "dirty")
              status.dirty();
            parsedSet.add(element.value);
          }
          return { status: status.value, value: parsedSet };
        }
        const elements = [...ctx.data.values()].map((item, i) => valueType._parse(new ParseInputLazyPath(ctx, item, ctx.path, i)));
        if (ctx.common.async) {
          return Promise.all(elements).then((elements2) => finalizeSet(elements2));
        } else {
          return finalizeSet(elements);
        }
      }
      min(minSize, message) {
        return new _ZodSet({
          ...this._def,
          minSize: { value: minSize, message: errorUtil.toString(message) }
        });
      }
      max(maxSize, message) {
        return new _ZodSet({
          ...this._def,
          maxSize: { value: maxSize, message: errorUtil.toString(message) }
        });
      }
      size(size, message) {
        return this.min(size, message).max(size, message);
      }
      nonempty(message) {
        return this.min(1, message);
      }
    };
    ZodSet.create = (valueType, params) => {
      return new ZodSet({
        valueType,
        minSize: null,
        maxSize: null,
        typeName: ZodFirstPartyTypeKind.ZodSet,
        ...processCreateParams(params)
      });
    };
    ZodFunction = class _ZodFunction extends ZodType {
      constructor() {
        super(...arguments);
        this.validate = this.implement;
      }
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        if (ctx.parsedType !== ZodParsedType.function) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.function,
            received: ctx.parsedType
          });
          return INVALID;
        }
        function makeArgsIssue(args, error) {
          return makeIssue({
            data: args,
            path: ctx.path,
            errorMaps: [ctx.common.contextualErrorMap, ctx.schemaErrorMap, getErrorMap(), en_default].filter((x) => !!x),
            issueData: {
              code: ZodIssueCode.invalid_arguments,
              argumentsError: error
            }
          });
        }
        function makeReturnsIssue(returns, error) {
          return makeIssue({
            data: returns,
            path: ctx.path,
            errorMaps: [ctx.common.contextualErrorMap, ctx.schemaErrorMap, getErrorMap(), en_default].filter((x) => !!x),
            issueData: {
              code: ZodIssueCode.invalid_return_type,
              returnTypeError: error
            }
          });
        }
        const params = { errorMap: ctx.common.contextualErrorMap };
        const fn = ctx.data;
        if (this._def.returns instanceof ZodPromise) {
          const me = this;
          return OK(async function(...args) {
            const error = new ZodError([]);
            const parsedArgs = await me._def.args.parseAsync(args, params).catch((e) => {
              error.addIssue(makeArgsIssue(args, e));
              throw error;
            });
            const result = await Reflect.apply(fn, this, parsedArgs);
            const parsedReturns = await me._def.returns._def.type.parseAsync(result, params).catch((e) => {
              error.addIssue(makeReturnsIssue(result, e));
              throw error;
            });
            return parsedReturns;
          });
        } else {
          const me = this;
          return OK(function(...args) {
            const parsedArgs = me._def.args.safeParse(args, params);
            if (!parsedArgs.success) {
              throw new ZodError([makeArgsIssue(args, parsedArgs.error)]);
            }
            const result = Reflect.apply(fn, this, parsedArgs.data);
            const parsedReturns = me._def.returns.safeParse(result, params);
            if (!parsedReturns.success) {
              throw new ZodError([makeReturnsIssue(result, parsedReturns.error)]);
            }
            return parsedReturns.data;
          });
        }
      }
      parameters() {
        return this._def.args;
      }
      returnType() {
        return this._def.returns;
      }
      args(...items) {
        return new _ZodFunction({
          ...this._def,
          args: ZodTuple.create(items).rest(ZodUnknown.create())
        });
      }
      returns(returnType) {
        return new _ZodFunction({
          ...this._def,
          returns: returnType
        });
      }
      implement(func) {
        const validatedFunc = this.parse(func);
        return validatedFunc;
      }
      strictImplement(func) {
        const validatedFunc = this.parse(func);
        return validatedFunc;
      }
      static create(args, returns, params) {
        return new _ZodFunction({
          args: args ? args : ZodTuple.create([]).rest(ZodUnknown.create()),
          returns: returns || ZodUnknown.create(),
          typeName: ZodFirstPartyTypeKind.ZodFunction,
          ...processCreateParams(params)
        });
      }
    };
    ZodLazy = class extends ZodType {
      get schema() {
        return this._def.getter();
      }
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        const lazySchema = this._def.getter();
        return lazySchema._parse({ data: ctx.data, path: ctx.path, parent: ctx });
      }
    };
    ZodLazy.create = (getter, params) => {
      return new ZodLazy({
        getter,
        typeName: ZodFirstPartyTypeKind.ZodLazy,
        ...processCreateParams(params)
      });
    };
    ZodLiteral = class extends ZodType {
      _parse(input) {
        if (input.data !== this._def.value) {
          const ctx = this._getOrReturnCtx(input);
          addIssueToContext(ctx, {
            received: ctx.data,
            code: ZodIssueCode.invalid_literal,
            expected: this._def.value
          });
          return INVALID;
        }
        return { status: "valid", value: input.data };
      }
      get value() {
        return this._def.value;
      }
    };
    ZodLiteral.create = (value, params) => {
      return new ZodLiteral({
        value,
        typeName: ZodFirstPartyTypeKind.ZodLiteral,
        ...processCreateParams(params)
      });
    };
    ZodEnum = class _ZodEnum extends ZodType {
      _parse(input) {
        if (typeof input.data !== "string") {
          const ctx = this._getOrReturnCtx(input);
          const expectedValues = this._def.values;
          addIssueToContext(ctx, {
            expected: util.joinValues(expectedValues),
            received: ctx.parsedType,
            code: ZodIssueCode.invalid_type
          });
          return INVALID;
        }
        if (!this._cache) {
          this._cache = new Set(this._def.values);
        }
        if (!this._cache.has(input.data)) {
          const ctx = this._getOrReturnCtx(input);
          const expectedValues = this._def.values;
          addIssueToContext(ctx, {
            received: ctx.data,
            code: ZodIssueCode.invalid_enum_value,
            options: expectedValues
          });
          return INVALID;
        }
        return OK(input.data);
      }
      get options() {
        return this._def.values;
      }
      get enum() {
        const enumValues = {};
        for (const val of this._def.values) {
          enumValues[val] = val;
        }
        return enumValues;
      }
      get Values() {
        const enumValues = {};
        for (const val of this._def.values) {
          enumValues[val] = val;
        }
        return enumValues;
      }
      get Enum() {
        const enumValues = {};
        for (const val of this._def.values) {
          enumValues[val] = val;
        }
        return enumValues;
      }
      extract(values, newDef = this._def) {
        return _ZodEnum.create(values, {
          ...this._def,
          ...newDef
        });
      }
      exclude(values, newDef = this._def) {
        return _ZodEnum.create(this.options.filter((opt) => !values.includes(opt)), {
          ...this._def,
          ...newDef
        });
      }
    };
    ZodEnum.create = createZodEnum;
    ZodNativeEnum = class extends ZodType {
      _parse(input) {
        const nativeEnumValues = util.getValidEnumValues(this._def.values);
        const ctx = this._getOrReturnCtx(input);
        if (ctx.parsedType !== ZodParsedType.string && ctx.parsedType !== ZodParsedType.number) {
          const expectedValues = util.objectValues(nativeEnumValues);
          addIssueToContext(ctx, {
            expected: util.joinValues(expectedValues),
            received: ctx.parsedType,
            code: ZodIssueCode.invalid_type
          });
          return INVALID;
        }
        if (!this._cache) {
          this._cache = new Set(util.getValidEnumValues(this._def.values));
        }
        if (!this._cache.has(input.data)) {
          const expectedValues = util.objectValues(nativeEnumValues);
          addIssueToContext(ctx, {
            received: ctx.data,
            code: ZodIssueCode.invalid_enum_value,
            options: expectedValues
          });
          return INVALID;
        }
        return OK(input.data);
      }
      get enum() {
        return this._def.values;
      }
    };
    ZodNativeEnum.create = (values, params) => {
      return new ZodNativeEnum({
        values,
        typeName: ZodFirstPartyTypeKind.ZodNativeEnum,
        ...processCreateParams(params)
      });
    };
    ZodPromise = class extends ZodType {
      unwrap() {
        return this._def.type;
      }
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        if (ctx.parsedType !== ZodParsedType.promise && ctx.common.async === false) {
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.promise,
            received: ctx.parsedType
          });
          return INVALID;
        }
        const promisified = ctx.parsedType === ZodParsedType.promise ? ctx.data : Promise.resolve(ctx.data);
        return OK(promisified.then((data) => {
          return this._def.type.parseAsync(data, {
            path: ctx.path,
            errorMap: ctx.common.contextualErrorMap
          });
        }));
      }
    };
    ZodPromise.create = (schema, params) => {
      return new ZodPromise({
        type: schema,
        typeName: ZodFirstPartyTypeKind.ZodPromise,
        ...processCreateParams(params)
      });
    };
    ZodEffects = class extends ZodType {
      innerType() {
        return this._def.schema;
      }
      sourceType() {
        return this._def.schema._def.typeName === ZodFirstPartyTypeKind.ZodEffects ? this._def.schema.sourceType() : this._def.schema;
      }
      _parse(input) {
        const { status, ctx } = this._processInputParams(input);
        const effect = this._def.effect || null;
        const checkCtx = {
          addIssue: (arg) => {
            addIssueToContext(ctx, arg);
            if (arg.fatal) {
              status.abort();
            } else {
              status.dirty();
            }
          },
          get path() {
            return ctx.path;
          }
        };
        checkCtx.addIssue = checkCtx.addIssue.bind(checkCtx);
        if (effect.type === "preprocess") {
          const processed = effect.transform(ctx.data, checkCtx);
          if (ctx.common.async) {
            return Promise.resolve(processed).then(async (processed2) => {
              if (status.value === "aborted")
                return INVALID;
              const result = await this._def.schema._parseAsync({
                data: processed2,
                path: ctx.path,
                parent: ctx
              });
              if (result.status === "aborted")
                return INVALID;
              if (result.status === "dirty")
                return DIRTY(result.value);
              if (status.value === "dirty")
                return DIRTY(result.value);
              return result;
            });
          } else {
            if (status.value === "aborted")
              return INVALID;
            const result = this._def.schema._parseSync({
              data: processed,
              path: ctx.path,
              parent: ctx
            });
            if (result.status === "aborted")
              return INVALID;
            if (result.status === "dirty")
              return DIRTY(result.value);
            if (status.value === "dirty")
              return DIRTY(result.value);
            return result;
          }
        }
        if (effect.type === "refinement") {
          const executeRefinement = (acc) => {
            const result = effect.refinement(acc, checkCtx);
            if (ctx.common.async) {
              return Promise.resolve(result);
            }
            if (result instanceof Promise) {
              throw new Error("Async refinement encountered during synchronous parse operation. Use .parseAsync instead.");
            }
            return acc;
          };
          if (ctx.common.async === false) {
            const inner = this._def.schema._parseSync({
              data: ctx.data,
              path: ctx.path,
              parent: ctx
            });
            if (inner.status === "aborted")
              return INVALID;
            if (inner.status === "dirty")
              status.dirty();
            executeRefinement(inner.value);
            return { status: status.value, value: inner.value };
          } else {
            return this._def.schema._parseAsync({ data: ctx.data, path: ctx.path, parent: ctx }).then((inner) => {
              if (inner.status === "aborted")
                return INVALID;
              if (inner.status === "dirty")
                status.dirty();
              return executeRefinement(inner.value).then(() => {
                return { status: status.value, value: inner.value };
              });
            });
          }
        }
        if (effect.type === "transform") {
          if (ctx.common.async === false) {
            const base = this._def.schema._parseSync({
              data: ctx.data,
              path: ctx.path,
              parent: ctx
            });
            if (!isValid(base))
              return INVALID;
            const result = effect.transform(base.value, checkCtx);
            if (result instanceof Promise) {
              throw new Error(`Asynchronous transform encountered during synchronous parse operation. Use .parseAsync instead.`);
            }
            return { status: status.value, value: result };
          } else {
            return this._def.schema._parseAsync({ data: ctx.data, path: ctx.path, parent: ctx }).then((base) => {
              if (!isValid(base))
                return INVALID;
              return Promise.resolve(effect.transform(base.value, checkCtx)).then((result) => ({
                status: status.value,
                value: result
              }));
            });
          }
        }
        util.assertNever(effect);
      }
    };
    ZodEffects.create = (schema, effect, params) => {
      return new ZodEffects({
        schema,
        typeName: ZodFirstPartyTypeKind.ZodEffects,
        effect,
        ...processCreateParams(params)
      });
    };
    ZodEffects.createWithPreprocess = (preprocess, schema, params) => {
      return new ZodEffects({
        schema,
        effect: { type: "preprocess", transform: preprocess },
        typeName: ZodFirstPartyTypeKind.ZodEffects,
        ...processCreateParams(params)
      });
    };
    ZodOptional = class extends ZodType {
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType === ZodParsedType.undefined) {
          return OK(void 0);
        }
        return this._def.innerType._parse(input);
      }
      unwrap() {
        return this._def.innerType;
      }
    };
    ZodOptional.create = (type, params) => {
      return new ZodOptional({
        innerType: type,
        typeName: ZodFirstPartyTypeKind.ZodOptional,
        ...processCreateParams(params)
      });
    };
    ZodNullable = class extends ZodType {
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType === ZodParsedType.null) {
          return OK(null);
        }
        return this._def.innerType._parse(input);
      }
      unwrap() {
        return this._def.innerType;
      }
    };
    ZodNullable.create = (type, params) => {
      return new ZodNullable({
        innerType: type,
        typeName: ZodFirstPartyTypeKind.ZodNullable,
        ...processCreateParams(params)
      });
    };
    ZodDefault = class extends ZodType {
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        let data = ctx.data;
        if (ctx.parsedType === ZodParsedType.undefined) {
          data = this._def.defaultValue();
        }
        return this._def.innerType._parse({
          data,
          path: ctx.path,
          parent: ctx
        });
      }
      removeDefault() {
        return this._def.innerType;
      }
    };
    ZodDefault.create = (type, params) => {
      return new ZodDefault({
        innerType: type,
        typeName: ZodFirstPartyTypeKind.ZodDefault,
        defaultValue: typeof params.default === "function" ? params.default : () => params.default,
        ...processCreateParams(params)
      });
    };
    ZodCatch = class extends ZodType {
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        const newCtx = {
          ...ctx,
          common: {
            ...ctx.common,
            issues: []
          }
        };
        const result = this._def.innerType._parse({
          data: newCtx.data,
          path: newCtx.path,
          parent: {
            ...newCtx
          }
        });
        if (isAsync(result)) {
          return result.then((result2) => {
            return {
              status: "valid",
              value: result2.status === "valid" ? result2.value : this._def.catchValue({
                get error() {
                  return new ZodError(newCtx.common.issues);
                },
                input: newCtx.data
              })
            };
          });
        } else {
          return {
            status: "valid",
            value: result.status === "valid" ? result.value : this._def.catchValue({
              get error() {
                return new ZodError(newCtx.common.issues);
              },
              input: newCtx.data
            })
          };
        }
      }
      removeCatch() {
        return this._def.innerType;
      }
    };
    ZodCatch.create = (type, params) => {
      return new ZodCatch({
        innerType: type,
        typeName: ZodFirstPartyTypeKind.ZodCatch,
        catchValue: typeof params.catch === "function" ? params.catch : () => params.catch,
        ...processCreateParams(params)
      });
    };
    ZodNaN = class extends ZodType {
      _parse(input) {
        const parsedType = this._getType(input);
        if (parsedType !== ZodParsedType.nan) {
          const ctx = this._getOrReturnCtx(input);
          addIssueToContext(ctx, {
            code: ZodIssueCode.invalid_type,
            expected: ZodParsedType.nan,
            received: ctx.parsedType
          });
          return INVALID;
        }
        return { status: "valid", value: input.data };
      }
    };
    ZodNaN.create = (params) => {
      return new ZodNaN({
        typeName: ZodFirstPartyTypeKind.ZodNaN,
        ...processCreateParams(params)
      });
    };
    BRAND = /* @__PURE__ */ Symbol("zod_brand");
    ZodBranded = class extends ZodType {
      _parse(input) {
        const { ctx } = this._processInputParams(input);
        const data = ctx.data;
        return this._def.type._parse({
          data,
          path: ctx.path,
          parent: ctx
        });
      }
      unwrap() {
        return this._def.type;
      }
    };
    ZodPipeline = class _ZodPipeline extends ZodType {
      _parse(input) {
        const { status, ctx } = this._processInputParams(input);
        if (ctx.common.async) {
          const handleAsync = async () => {
            const inResult = await this._def.in._parseAsync({
              data: ctx.data,
              path: ctx.path,
              parent: ctx
            });
            if (inResult.status === "aborted")
              return INVALID;
            if (inResult.status === "dirty") {
              status.dirty();
              return DIRTY(inResult.value);
            } else {
              return this._def.out._parseAsync({
                data: inResult.value,
                path: ctx.path,
                parent: ctx
              });
            }
          };
          return handleAsync();
        } else {
          const inResult = this._def.in._parseSync({
            data: ctx.data,
            path: ctx.path,
            parent: ctx
          });
          if (inResult.status === "aborted")
            return INVALID;
          if (inResult.status === "dirty") {
            status.dirty();
            return {
              status: "dirty",
              value: inResult.value
            };
          } else {
            return this._def.out._parseSync({
              data: inResult.value,
              path: ctx.path,
              parent: ctx
            });
          }
        }
      }
      static create(a, b) {
        return new _ZodPipeline({
          in: a,
          out: b,
          typeName: ZodFirstPartyTypeKind.ZodPipeline
        });
      }
    };
    ZodReadonly = class extends ZodType {
      _parse(input) {
        const result = this._def.innerType._parse(input);
        const freeze = (data) => {
          if (isValid(data)) {
            data.value = Object.freeze(data.value);
          }
          return data;
        };
        return isAsync(result) ? result.then((data) => freeze(data)) : freeze(result);
      }
      unwrap() {
        return this._def.innerType;
      }
    };
    ZodReadonly.create = (type, params) => {
      return new ZodReadonly({
        innerType: type,
        typeName: ZodFirstPartyTypeKind.ZodReadonly,
        ...processCreateParams(params)
      });
    };
    late = {
      object: ZodObject.lazycreate
    };
    (function(ZodFirstPartyTypeKind2) {
      ZodFirstPartyTypeKind2["ZodString"] = "ZodString";
      ZodFirstPartyTypeKind2["ZodNumber"] = "ZodNumber";
      ZodFirstPartyTypeKind2["ZodNaN"] = "ZodNaN";
      ZodFirstPartyTypeKind2["ZodBigInt"] = "ZodBigInt";
      ZodFirstPartyTypeKind2["ZodBoolean"] = "ZodBoolean";
      ZodFirstPartyTypeKind2["ZodDate"] = "ZodDate";
      ZodFirstPartyTypeKind2["ZodSymbol"] = "ZodSymbol";
      ZodFirstPartyTypeKind2["ZodUndefined"] = "ZodUndefined";
      ZodFirstPartyTypeKind2["ZodNull"] = "ZodNull";
      ZodFirstPartyTypeKind2["ZodAny"] = "ZodAny";
      ZodFirstPartyTypeKind2["ZodUnknown"] = "ZodUnknown";
      ZodFirstPartyTypeKind2["ZodNever"] = "ZodNever";
      ZodFirstPartyTypeKind2["ZodVoid"] = "ZodVoid";
      ZodFirstPartyTypeKind2["ZodArray"] = "ZodArray";
      ZodFirstPartyTypeKind2["ZodObject"] = "ZodObject";
      ZodFirstPartyTypeKind2["ZodUnion"] = "ZodUnion";
      ZodFirstPartyTypeKind2["ZodDiscriminatedUnion"] = "ZodDiscriminatedUnion";
      ZodFirstPartyTypeKind2["ZodIntersection"] = "ZodIntersection";
      ZodFirstPartyTypeKind2["ZodTuple"] = "ZodTuple";
      ZodFirstPartyTypeKind2["ZodRecord"] = "ZodRecord";
      ZodFirstPartyTypeKind2["ZodMap"] = "ZodMap";
      ZodFirstPartyTypeKind2["ZodSet"] = "ZodSet";
      ZodFirstPartyTypeKind2["ZodFunction"] = "ZodFunction";
      ZodFirstPartyTypeKind2["ZodLazy"] = "ZodLazy";
      ZodFirstPartyTypeKind2["ZodLiteral"] = "ZodLiteral";
      ZodFirstPartyTypeKind2["ZodEnum"] = "ZodEnum";
      ZodFirstPartyTypeKind2["ZodEffects"] = "ZodEffects";
      ZodFirstPartyTypeKind2["ZodNativeEnum"] = "ZodNativeEnum";
      ZodFirstPartyTypeKind2["ZodOptional"] = "ZodOptional";
      ZodFirstPartyTypeKind2["ZodNullable"] = "ZodNullable";
      ZodFirstPartyTypeKind2["ZodDefault"] = "ZodDefault";
      ZodFirstPartyTypeKind2["ZodCatch"] = "ZodCatch";
      ZodFirstPartyTypeKind2["ZodPromise"] = "ZodPromise";
      ZodFirstPartyTypeKind2["ZodBranded"] = "ZodBranded";
      ZodFirstPartyTypeKind2["ZodPipeline"] = "ZodPipeline";
      ZodFirstPartyTypeKind2["ZodReadonly"] = "ZodReadonly";
    })(ZodFirstPartyTypeKind || (ZodFirstPartyTypeKind = {}));
    instanceOfType = (cls, params = {
      message: `Input not instance of ${cls.name}`
    }) => custom((data) => data instanceof cls, params);
    stringType = ZodString.create;
    numberType = ZodNumber.create;
    nanType = ZodNaN.create;
    bigIntType = ZodBigInt.create;
    booleanType = ZodBoolean.create;
    dateType = ZodDate.create;
    symbolType = ZodSymbol.create;
    undefinedType = ZodUndefined.create;
    nullType = ZodNull.create;
    anyType = ZodAny.create;
    unknownType = ZodUnknown.create;
    neverType = ZodNever.create;
    voidType = ZodVoid.create;
    arrayType = ZodArray.create;
    objectType = ZodObject.create;
    strictObjectType = ZodObject.strictCreate;
    unionType = ZodUnion.create;
    discriminatedUnionType = ZodDiscriminatedUnion.create;
    intersectionType = ZodIntersection.create;
    tupleType = ZodTuple.create;
    recordType = ZodRecord.create;
    mapType = ZodMap.create;
    setType = ZodSet.create;
    functionType = ZodFunction.create;
    lazyType = ZodLazy.create;
    literalType = ZodLiteral.create;
    enumType = ZodEnum.create;
    nativeEnumType = ZodNativeEnum.create;
    promiseType = ZodPromise.create;
    effectsType = ZodEffects.create;
    optionalType = ZodOptional.create;
    nullableType = ZodNullable.create;
    preprocessType = ZodEffects.createWithPreprocess;
    pipelineType = ZodPipeline.create;
    ostring = () => stringType().optional();
    onumber = () => numberType().optional();
    oboolean = () => booleanType().optional();
    coerce = {
      string: ((arg) => ZodString.create({ ...arg, coerce: true })),
      number: ((arg) => ZodNumber.create({ ...arg, coerce: true })),
      boolean: ((arg) => ZodBoolean.create({
        ...arg,
        coerce: true
      })),
      bigint: ((arg) => ZodBigInt.create({ ...arg, coerce: true })),
      date: ((arg) => ZodDate.create({ ...arg, coerce: true }))
    };
    NEVER = INVALID;
  }
});

// node_modules/zod/v3/external.js
var external_exports = {};
__export(external_exports, {
  BRAND: () => BRAND,
  DIRTY: () => DIRTY,
  EMPTY_PATH: () => EMPTY_PATH,
  INVALID: () => INVALID,
  NEVER: () => NEVER,
  OK: () => OK,
  ParseStatus: () => ParseStatus,
  Schema: () => ZodType,
  ZodAny: () => ZodAny,
  ZodArray: () => ZodArray,
  ZodBigInt: () => ZodBigInt,
  ZodBoolean: () => ZodBoolean,
  ZodBranded: () => ZodBranded,
  ZodCatch: () => ZodCatch,
  ZodDate: () => ZodDate,
  ZodDefault: () => ZodDefault,
  ZodDiscriminatedUnion: () => ZodDiscriminatedUnion,
  ZodEffects: () => ZodEffects,
  ZodEnum: () => ZodEnum,
  ZodError: () => ZodError,
  ZodFirstPartyTypeKind: () => ZodFirstPartyTypeKind,
  ZodFunction: () => ZodFunction,
  ZodIntersection: () => ZodIntersection,
  ZodIssueCode: () => ZodIssueCode,
  ZodLazy: () => ZodLazy,
  ZodLiteral: () => ZodLiteral,
  ZodMap: () => ZodMap,
  ZodNaN: () => ZodNaN,
  ZodNativeEnum: () => ZodNativeEnum,
  ZodNever: () => ZodNever,
  ZodNull: () => ZodNull,
  ZodNullable: () => ZodNullable,
  ZodNumber: () => ZodNumber,
  ZodObject: () => ZodObject,
  ZodOptional: () => ZodOptional,
  ZodParsedType: () => ZodParsedType,
  ZodPipeline: () => ZodPipeline,
  ZodPromise: () => ZodPromise,
  ZodReadonly: () => ZodReadonly,
  ZodRecord: () => ZodRecord,
  ZodSchema: () => ZodType,
  ZodSet: () => ZodSet,
  ZodString: () => ZodString,
  ZodSymbol: () => ZodSymbol,
  ZodTransformer: () => ZodEffects,
  ZodTuple: () => ZodTuple,
  ZodType: () => ZodType,
  ZodUndefined: () => ZodUndefined,
  ZodUnion: () => ZodUnion,
  ZodUnknown: () => ZodUnknown,
  ZodVoid: () => ZodVoid,
  addIssueToContext: () => addIssueToContext,
  any: () => anyType,
  array: () => arrayType,
  bigint: () => bigIntType,
  boolean: () => booleanType,
  coerce: () => coerce,
  custom: () => custom,
  date: () => dateType,
  datetimeRegex: () => datetimeRegex,
  defaultErrorMap: () => en_default,
  discriminatedUnion: () => discriminatedUnionType,
  effect: () => effectsType,
  enum: () => enumType,
  function: () => functionType,
  getErrorMap: () => getErrorMap,
  getParsedType: () => getParsedType,
  instanceof: () => instanceOfType,
  intersection: () => intersectionType,
  isAborted: () => isAborted,
  isAsync: () => isAsync,
  isDirty: () => isDirty,
  isValid: () => isValid,
  late: () => late,
  lazy: () => lazyType,
  literal: () => literalType,
  makeIssue: () => makeIssue,
  map: () => mapType,
  nan: () => nanType,
  nativeEnum: () => nativeEnumType,
  never: () => neverType,
  null: () => nullType,
  nullable: () => nullableType,
  number: () => numberType,
  object: () => objectType,
  objectUtil: () => objectUtil,
  oboolean: () => oboolean,
  onumber: () => onumber,
  optional: () => optionalType,
  ostring: () => ostring,
  pipeline: () => pipelineType,
  preprocess: () => preprocessType,
  promise: () => promiseType,
  quotelessJson: () => quotelessJson,
  record: () => recordType,
  set: () => setType,
  setErrorMap: () => setErrorMap,
  strictObject: () => strictObjectType,
  string: () => stringType,
  symbol: () => symbolType,
  transformer: () => effectsType,
  tuple: () => tupleType,
  undefined: () => undefinedType,
  union: () => unionType,
  unknown: () => unknownType,
  util: () => util,
  void: () => voidType
});
var init_external = __esm({
  "node_modules/zod/v3/external.js"() {
    init_errors();
    init_parseUtil();
    init_typeAliases();
    init_util();
    init_types();
    init_ZodError();
  }
});

// node_modules/zod/v3/index.js
var init_v3 = __esm({
  "node_modules/zod/v3/index.js"() {
    init_external();
    init_external();
  }
});

// src/lib/util/process-alive.ts
import { readFileSync } from "node:fs";
function procState(pid) {
  try {
    const stat4 = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat4.slice(stat4.lastIndexOf(")") + 2, stat4.lastIndexOf(")") + 3) || void 0;
  } catch {
    return void 0;
  }
}
function isProcessAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  const state = procState(pid);
  return state !== "Z" && state !== "X";
}
var init_process_alive = __esm({
  "src/lib/util/process-alive.ts"() {
    "use strict";
  }
});

// src/lib/util/origin.ts
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync as readFileSync3 } from "node:fs";
import { hostname, userInfo } from "node:os";
function machineId() {
  for (const file of MACHINE_ID_FILES) {
    try {
      const id = readFileSync3(file, "utf8").trim();
      if (id !== "") return id;
    } catch {
    }
  }
  if (process.platform === "darwin") {
    try {
      const out = execFileSync("/usr/sbin/ioreg", ["-rd1", "-c", "IOPlatformExpertDevice"], { encoding: "utf8", timeout: 2e3, stdio: ["ignore", "pipe", "ignore"] });
      const uuid = /"IOPlatformUUID" = "([^"]+)"/.exec(out)?.[1];
      if (uuid !== void 0) return uuid;
    } catch {
    }
  }
  return `host:${hostname()}`;
}
function userName() {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? "";
  }
}
function originOf(machine, user) {
  return `m-${createHash("sha256").update(`graphiti-memory-sync\0${machine}\0${user}`).digest("hex").slice(0, 10)}`;
}
function machineOrigin() {
  cached ??= originOf(machineId(), userName());
  return cached;
}
var ORIGIN_NAME, MACHINE_ID_FILES, cached;
var init_origin = __esm({
  "src/lib/util/origin.ts"() {
    "use strict";
    ORIGIN_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
    MACHINE_ID_FILES = ["/etc/machine-id", "/var/lib/dbus/machine-id"];
  }
});

// node_modules/dotenv/lib/main.js
var require_main = __commonJS({
  "node_modules/dotenv/lib/main.js"(exports2, module2) {
    var fs = __require("fs");
    var path = __require("path");
    var os = __require("os");
    var crypto = __require("crypto");
    var TIPS = [
      "\u25C8 encrypted .env [www.dotenvx.com]",
      "\u25C8 secrets for agents [www.dotenvx.com]",
      "\u2301 auth for agents [www.vestauth.com]",
      "\u2318 custom filepath { path: '/custom/path/.env' }",
      "\u2318 enable debugging { debug: true }",
      "\u2318 override existing { override: true }",
      "\u2318 suppress logs { quiet: true }",
      "\u2318 multiple files { path: ['.env.local', '.env'] }"
    ];
    function _getRandomTip() {
      return TIPS[Math.floor(Math.random() * TIPS.length)];
    }
    function parseBoolean(value) {
      if (typeof value === "string") {
        return !["false", "0", "no", "off", ""].includes(value.toLowerCase());
      }
      return Boolean(value);
    }
    function supportsAnsi() {
      return process.stdout.isTTY;
    }
    function dim(text2) {
      return supportsAnsi() ? `\x1B[2m${text2}\x1B[0m` : text2;
    }
    var LINE = /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/mg;
    function parse2(src) {
      const obj = {};
      let lines = src.toString();
      lines = lines.replace(/\r\n?/mg, "\n");
      let match;
      while ((match = LINE.exec(lines)) != null) {
        const key = match[1];
        let value = match[2] || "";
        value = value.trim();
        const maybeQuote = value[0];
        value = value.replace(/^(['"`])([\s\S]*)\1$/mg, "$2");
        if (maybeQuote === '"') {
          value = value.replace(/\\n/g, "\n");
          value = value.replace(/\\r/g, "\r");
        }
        obj[key] = value;
      }
      return obj;
    }
    function _parseVault(options2) {
      options2 = options2 || {};
      const vaultPath = _vaultPath(options2);
      options2.path = vaultPath;
      const result = DotenvModule.configDotenv(options2);
      if (!result.parsed) {
        const err = new Error(`MISSING_DATA: Cannot parse ${vaultPath} for an unknown reason`);
        err.code = "MISSING_DATA";
        throw err;
      }
      const keys = _dotenvKey(options2).split(",");
      const length = keys.length;
      let decrypted;
      for (let i = 0; i < length; i++) {
        try {
          const key = keys[i].trim();
          const attrs = _instructions(result, key);
          decrypted = DotenvModule.decrypt(attrs.ciphertext, attrs.key);
          break;
        } catch (error) {
          if (i + 1 >= length) {
            throw error;
          }
        }
      }
      return DotenvModule.parse(decrypted);
    }
    function _warn(message) {
      console.error(`\u26A0 ${message}`);
    }
    function _debug(message) {
      console.log(`\u2506 ${message}`);
    }
    function _log(message) {
      console.log(`\u25C7 ${message}`);
    }
    function _dotenvKey(options2) {
      if (options2 && options2.DOTENV_KEY && options2.DOTENV_KEY.length > 0) {
        return options2.DOTENV_KEY;
      }
      if (process.env.DOTENV_KEY && process.env.DOTENV_KEY.length > 0) {
        return process.env.DOTENV_KEY;
      }
      return "";
    }
    function _instructions(result, dotenvKey) {
      let uri;
      try {
        uri = new URL(dotenvKey);
      } catch (error) {
        if (error.code === "ERR_INVALID_URL") {
          const err = new Error("INVALID_DOTENV_KEY: Wrong format. Must be in valid uri format like dotenv://:key_1234@dotenvx.com/vault/.env.vault?environment=development");
          err.code = "INVALID_DOTENV_KEY";
          throw err;
        }
        throw error;
      }
      const key = uri.password;
      if (!key) {
        const err = new Error("INVALID_DOTENV_KEY: Missing key part");
        err.code = "INVALID_DOTENV_KEY";
        throw err;
      }
      const environment = uri.searchParams.get("environment");
      if (!environment) {
        const err = new Error("INVALID_DOTENV_KEY: Missing environment part");
        err.code = "INVALID_DOTENV_KEY";
        throw err;
      }
      const environmentKey = `DOTENV_VAULT_${environment.toUpperCase()}`;
      const ciphertext = result.parsed[environmentKey];
      if (!ciphertext) {
        const err = new Error(`NOT_FOUND_DOTENV_ENVIRONMENT: Cannot locate environment ${environmentKey} in your .env.vault file.`);
        err.code = "NOT_FOUND_DOTENV_ENVIRONMENT";
        throw err;
      }
      return { ciphertext, key };
    }
    function _vaultPath(options2) {
      let possibleVaultPath = null;
      if (options2 && options2.path && options2.path.length > 0) {
        if (Array.isArray(options2.path)) {
          for (const filepath of options2.path) {
            if (fs.existsSync(filepath)) {
              possibleVaultPath = filepath.endsWith(".vault") ? filepath : `${filepath}.vault`;
            }
          }
        } else {
          possibleVaultPath = options2.path.endsWith(".vault") ? options2.path : `${options2.path}.vault`;
        }
      } else {
        possibleVaultPath = path.resolve(process.cwd(), ".env.vault");
      }
      if (fs.existsSync(possibleVaultPath)) {
        return possibleVaultPath;
      }
      return null;
    }
    function _resolveHome(envPath) {
      return envPath[0] === "~" ? path.join(os.homedir(), envPath.slice(1)) : envPath;
    }
    function _configVault(options2) {
      const debug = parseBoolean(process.env.DOTENV_CONFIG_DEBUG || options2 && options2.debug);
      const quiet = parseBoolean(process.env.DOTENV_CONFIG_QUIET || options2 && options2.quiet);
      if (debug || !quiet) {
        _log("loading env from encrypted .env.vault");
      }
      const parsed = DotenvModule._parseVault(options2);
      let processEnv = process.env;
      if (options2 && options2.processEnv != null) {
        processEnv = options2.processEnv;
      }
      DotenvModule.populate(processEnv, parsed, options2);
      return { parsed };
    }
    function configDotenv(options2) {
      const dotenvPath = path.resolve(process.cwd(), ".env");
      let encoding = "utf8";
      let processEnv = process.env;
      if (options2 && options2.processEnv != null) {
        processEnv = options2.processEnv;
      }
      let debug = parseBoolean(processEnv.DOTENV_CONFIG_DEBUG || options2 && options2.debug);
      let quiet = parseBoolean(processEnv.DOTENV_CONFIG_QUIET || options2 && options2.quiet);
      if (options2 && options2.encoding) {
        encoding = options2.encoding;
      } else {
        if (debug) {
          _debug("no encoding is specified (UTF-8 is used by default)");
        }
      }
      let optionPaths = [dotenvPath];
      if (options2 && options2.path) {
        if (!Array.isArray(options2.path)) {
          optionPaths = [_resolveHome(options2.path)];
        } else {
          optionPaths = [];
          for (const filepath of options2.path) {
            optionPaths.push(_resolveHome(filepath));
          }
        }
      }
      let lastError;
      const parsedAll = {};
      for (const path2 of optionPaths) {
        try {
          const parsed = DotenvModule.parse(fs.readFileSync(path2, { encoding }));
          DotenvModule.populate(parsedAll, parsed, options2);
        } catch (e) {
          if (debug) {
            _debug(`failed to load ${path2} ${e.message}`);
          }
          lastError = e;
        }
      }
      const populated = DotenvModule.populate(processEnv, parsedAll, options2);
      debug = parseBoolean(processEnv.DOTENV_CONFIG_DEBUG || debug);
      quiet = parseBoolean(processEnv.DOTENV_CONFIG_QUIET || quiet);
      if (debug || !quiet) {
        const keysCount = Object.keys(populated).length;
        const shortPaths = [];
        for (const filePath of optionPaths) {
          try {
            const relative = path.relative(process.cwd(), filePath);
            shortPaths.push(relative);
          } catch (e) {
            if (debug) {
              _debug(`failed to load ${filePath} ${e.message}`);
            }
            lastError = e;
          }
        }
        _log(`injected env (${keysCount}) from ${shortPaths.join(",")} ${dim(`// tip: ${_getRandomTip()}`)}`);
      }
      if (lastError) {
        return { parsed: parsedAll, error: lastError };
      } else {
        return { parsed: parsedAll };
      }
    }
    function config(options2) {
      if (_dotenvKey(options2).length === 0) {
        return DotenvModule.configDotenv(options2);
      }
      const vaultPath = _vaultPath(options2);
      if (!vaultPath) {
        _warn(`you set DOTENV_KEY but you are missing a .env.vault file at ${vaultPath}`);
        return DotenvModule.configDotenv(options2);
      }
      return DotenvModule._configVault(options2);
    }
    function decrypt(encrypted, keyStr) {
      const key = Buffer.from(keyStr.slice(-64), "hex");
      let ciphertext = Buffer.from(encrypted, "base64");
      const nonce = ciphertext.subarray(0, 12);
      const authTag = ciphertext.subarray(-16);
      ciphertext = ciphertext.subarray(12, -16);
      try {
        const aesgcm = crypto.createDecipheriv("aes-256-gcm", key, nonce);
        aesgcm.setAuthTag(authTag);
        return `${aesgcm.update(ciphertext)}${aesgcm.final()}`;
      } catch (error) {
        const isRange = error instanceof RangeError;
        const invalidKeyLength = error.message === "Invalid key length";
        const decryptionFailed = error.message === "Unsupported state or unable to authenticate data";
        if (isRange || invalidKeyLength) {
          const err = new Error("INVALID_DOTENV_KEY: It must be 64 characters long (or more)");
          err.code = "INVALID_DOTENV_KEY";
          throw err;
        } else if (decryptionFailed) {
          const err = new Error("DECRYPTION_FAILED: Please check your DOTENV_KEY");
          err.code = "DECRYPTION_FAILED";
          throw err;
        } else {
          throw error;
        }
      }
    }
    function populate(processEnv, parsed, options2 = {}) {
      const debug = Boolean(options2 && options2.debug);
      const override = Boolean(options2 && options2.override);
      const populated = {};
      if (typeof parsed !== "object") {
        const err = new Error("OBJECT_REQUIRED: Please check the processEnv argument being passed to populate");
        err.code = "OBJECT_REQUIRED";
        throw err;
      }
      for (const key of Object.keys(parsed)) {
        if (Object.prototype.hasOwnProperty.call(processEnv, key)) {
          if (override === true) {
            processEnv[key] = parsed[key];
            populated[key] = parsed[key];
          }
          if (debug) {
            if (override === true) {
              _debug(`"${key}" is already defined and WAS overwritten`);
            } else {
              _debug(`"${key}" is already defined and was NOT overwritten`);
            }
          }
        } else {
          processEnv[key] = parsed[key];
          populated[key] = parsed[key];
        }
      }
      return populated;
    }
    var DotenvModule = {
      configDotenv,
      _configVault,
      _parseVault,
      config,
      decrypt,
      parse: parse2,
      populate
    };
    module2.exports.configDotenv = DotenvModule.configDotenv;
    module2.exports._configVault = DotenvModule._configVault;
    module2.exports._parseVault = DotenvModule._parseVault;
    module2.exports.config = DotenvModule.config;
    module2.exports.decrypt = DotenvModule.decrypt;
    module2.exports.parse = DotenvModule.parse;
    module2.exports.populate = DotenvModule.populate;
    module2.exports = DotenvModule;
  }
});

// src/lib/util/fs-atomic.ts
import { randomBytes } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { basename as basename2, dirname as dirname3, join as join4 } from "node:path";
function tempPathFor(path) {
  return join4(dirname3(path), `.${basename2(path)}.${process.pid}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
}
async function fsyncDir(dir) {
  let handle;
  try {
    handle = await open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch {
  } finally {
    await handle?.close().catch(() => void 0);
  }
}
async function writeFileAtomic(path, data, options2 = {}) {
  const mode = options2.mode ?? 384;
  if (options2.mkdirMode !== void 0 && options2.mkdirMode !== false) {
    await mkdir(dirname3(path), { recursive: true, mode: options2.mkdirMode });
  }
  const tmp = tempPathFor(path);
  const handle = await open(tmp, "wx", mode);
  let renamed = false;
  try {
    try {
      await handle.writeFile(data);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    renamed = true;
  } finally {
    if (!renamed) await unlink(tmp).catch(() => void 0);
  }
  await fsyncDir(dirname3(path));
}
async function readJsonFile(path) {
  let text2;
  try {
    text2 = await readFile(path, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return void 0;
    throw error;
  }
  try {
    return JSON.parse(text2);
  } catch (error) {
    const bytes = Buffer.byteLength(text2);
    const detail = error.message;
    throw new JsonFileError(`${path} is not valid JSON (${bytes} bytes): ${detail}`, path, bytes, detail);
  }
}
function isPidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}
async function removeStaleTempFiles(path, maxAgeMs = 60 * 6e4) {
  const dir = dirname3(path);
  const prefix = `.${basename2(path)}.`;
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const middle = name.slice(prefix.length, -TEMP_SUFFIX.length).split(".");
    const pid = Number(middle[0]);
    const full = join4(dir, name);
    try {
      const st = await stat(full);
      const dead = Number.isInteger(pid) && pid > 0 && !isPidAlive(pid);
      if (dead || Date.now() - st.mtimeMs > maxAgeMs) {
        await unlink(full);
        removed++;
      }
    } catch {
    }
  }
  return removed;
}
var TEMP_SUFFIX, JsonFileError;
var init_fs_atomic = __esm({
  "src/lib/util/fs-atomic.ts"() {
    "use strict";
    TEMP_SUFFIX = ".tmp";
    JsonFileError = class extends Error {
      constructor(message, path, bytes, detail) {
        super(message);
        this.path = path;
        this.bytes = bytes;
        this.detail = detail;
        this.name = "JsonFileError";
      }
      path;
      bytes;
      detail;
    };
  }
});

// src/lib/memory/context-header.ts
var CONTEXT_HEADER_PATTERN, CONTEXT_HEADER_START, LEGACY_CONTEXT_MARKER;
var init_context_header = __esm({
  "src/lib/memory/context-header.ts"() {
    "use strict";
    CONTEXT_HEADER_PATTERN = /^Knowledge graph facts for [^\n]{1,160} \(from Graphiti, groups? [^\n]{1,400}\):[ \t]*$/m;
    CONTEXT_HEADER_START = "Knowledge graph facts for ";
    LEGACY_CONTEXT_MARKER = "<!-- graphiti-memory-sync:context -->";
  }
});

// src/lib/context/cache.ts
import { readFileSync as readFileSync5 } from "node:fs";
import { join as join5 } from "node:path";
function contextCacheDir(stateDir) {
  return join5(stateDir, "context");
}
function contextCachePath(stateDir, key) {
  const safe = key.replace(/[^A-Za-z0-9_-]/g, "-") || "default";
  return join5(contextCacheDir(stateDir), `${safe}.json`);
}
function isEntry(value) {
  if (typeof value !== "object" || value === null) return false;
  const v = value;
  return v.version === 1 && typeof v.text === "string" && typeof v.builtAt === "string" && typeof v.project === "string" && typeof v.key === "string" && (v.format === "lines" || v.format === "toon" || v.format === "none") && typeof v.facts === "number";
}
function readContextCache(stateDir, key) {
  try {
    const text2 = readFileSync5(contextCachePath(stateDir, key), "utf8");
    const value = JSON.parse(text2);
    return isEntry(value) ? value : void 0;
  } catch {
    return void 0;
  }
}
async function writeContextCache(stateDir, entry) {
  const path = contextCachePath(stateDir, entry.key);
  await writeFileAtomic(path, `${JSON.stringify(entry, null, 2)}
`, { mode: 384, mkdirMode: 448 });
  return path;
}
var MAX_CONTEXT_CHARS, MAX_CONTEXT_BUDGET;
var init_cache = __esm({
  "src/lib/context/cache.ts"() {
    "use strict";
    init_fs_atomic();
    init_context_header();
    MAX_CONTEXT_CHARS = 9e3;
    MAX_CONTEXT_BUDGET = 1e4;
  }
});

// src/lib/util/log.ts
import { appendFileSync, mkdirSync as mkdirSync2, renameSync as renameSync2, statSync } from "node:fs";
import { dirname as dirname4, join as join6 } from "node:path";
function logFilePath(stateDir) {
  return join6(stateDir, "logs", "graphiti-memory-sync.log");
}
function scrub(fields) {
  const out = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_KEYS.test(key)) out[key] = "[redacted]";
    else if (value instanceof Error) out[key] = { name: value.name, message: value.message };
    else out[key] = value;
  }
  return out;
}
function createLogger(options2) {
  const level = options2.level ?? "info";
  const threshold = level === "silent" ? Number.POSITIVE_INFINITY : ORDER[level];
  const file = options2.file;
  let dirReady = false;
  let checkedSize = false;
  const write = (lvl, msg, base, fields) => {
    if (ORDER[lvl] < threshold) return;
    const line = JSON.stringify({ t: (/* @__PURE__ */ new Date()).toISOString(), level: lvl, pid: process.pid, msg, ...scrub(base), ...fields ? scrub(fields) : {} });
    options2.mirror?.(line);
    if (file === void 0) return;
    try {
      if (!dirReady) {
        mkdirSync2(dirname4(file), { recursive: true, mode: 448 });
        dirReady = true;
      }
      if (!checkedSize) {
        checkedSize = true;
        try {
          if (statSync(file).size > MAX_LOG_BYTES) renameSync2(file, `${file}.1`);
        } catch {
        }
      }
      appendFileSync(file, `${line}
`, { mode: 384 });
    } catch {
    }
  };
  const make = (base) => ({
    debug: (m, f) => write("debug", m, base, f),
    info: (m, f) => write("info", m, base, f),
    warn: (m, f) => write("warn", m, base, f),
    error: (m, f) => write("error", m, base, f),
    child: (f) => make({ ...base, ...f }),
    file
  });
  return make(options2.base ?? {});
}
var ORDER, MAX_LOG_BYTES, SECRET_KEYS, nullLogger;
var init_log = __esm({
  "src/lib/util/log.ts"() {
    "use strict";
    ORDER = { debug: 10, info: 20, warn: 30, error: 40 };
    MAX_LOG_BYTES = 5 * 1024 * 1024;
    SECRET_KEYS = /^(authorization|auth_?token|token|password|secret|api_?key|headers|cookie)$/i;
    nullLogger = createLogger({ level: "silent" });
  }
});

// src/lib/graphiti/escape.ts
import { createHash as createHash2 } from "node:crypto";
function showChar(ch) {
  if (ch === " ") return "space";
  if (ch === "	") return "tab";
  if (ch === "\n") return "newline";
  if (ch === "\r") return "carriage return";
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 32 || cp >= 127 && cp <= 159) return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  return `"${ch}"`;
}
function showId(id) {
  return JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}\u2026` : id);
}
function normalizeGroupId(db, id) {
  const trimmed = id.trim();
  if (trimmed === "") {
    throw new GroupIdError(`Group id ${showId(id)} is not allowed: it is empty; use letters, digits and underscores${db === "neo4j" ? " or hyphens" : ""}`, id, db);
  }
  if (db === "falkordb") {
    const normalized = trimmed.replace(/[^A-Za-z0-9_]/gu, "_");
    if (!/[A-Za-z0-9]/.test(normalized)) {
      throw new GroupIdError(
        `Group id ${showId(id)} is not allowed with FalkorDB: after replacing characters outside [A-Za-z0-9_] it becomes "${normalized}", which has no letter or digit (RediSearch rejects ids like "_"); use e.g. "main"`,
        id,
        db
      );
    }
    if (normalized.length > MAX_GROUP_ID_LENGTH) {
      throw new GroupIdError(`Group id ${showId(id)} is not allowed: at most ${MAX_GROUP_ID_LENGTH} characters`, id, db);
    }
    return normalized;
  }
  if (!NEO4J_GROUP.test(trimmed)) {
    const bad = [...new Set(Array.from(trimmed).filter((ch) => !/^[A-Za-z0-9_-]$/.test(ch)))];
    throw new GroupIdError(
      `Group id ${showId(id)} is not allowed: it contains ${bad.map(showChar).join(", ")}; graphiti accepts only ^[A-Za-z0-9_-]+$ (letters, digits, "_" and "-")`,
      id,
      db
    );
  }
  if (trimmed.length > MAX_GROUP_ID_LENGTH) {
    throw new GroupIdError(`Group id ${showId(id)} is not allowed: at most ${MAX_GROUP_ID_LENGTH} characters`, id, db);
  }
  return trimmed;
}
function shortHash(text2) {
  return createHash2("sha256").update(text2, "utf8").digest("hex").slice(0, 8);
}
function projectGroupId(db, projectName) {
  const sep = db === "falkordb" ? "_" : "-";
  const folded = projectName.normalize("NFKD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase();
  const keep2 = db === "falkordb" ? /[^a-z0-9_]+/g : /[^a-z0-9_-]+/g;
  let slug = folded.replace(keep2, sep);
  slug = slug.replace(db === "falkordb" ? /_+/g : /[-_]*-[-_]*/g, sep).replace(/^[-_]+|[-_]+$/g, "");
  if (!/[a-z0-9]/.test(slug)) return `project${sep}${shortHash(projectName)}`;
  if (slug.length > MAX_PROJECT_GROUP_LENGTH) {
    const prefix = slug.slice(0, MAX_PROJECT_GROUP_LENGTH - 9).replace(/[-_]+$/, "");
    slug = `${prefix}${sep}${shortHash(projectName)}`;
  }
  return slug;
}
function maxSearchWords(db, groupCount) {
  const groups = Math.max(0, Math.floor(groupCount));
  const words2 = db === "falkordb" ? Math.floor((GRAPHITI_MAX_QUERY_LENGTH - groups) / 2) : GRAPHITI_MAX_QUERY_LENGTH - 1 - groups;
  return Math.max(1, words2);
}
function capWords(text2, max) {
  if (text2 === "") return text2;
  const words2 = text2.split(" ");
  return words2.length <= max ? text2 : words2.slice(0, max).join(" ");
}
function escapeSearchQuery(db, text2, groupCount = 1) {
  const cleaned = db === "falkordb" ? text2.replace(CONTROLS, " ").replace(FALKOR_SPECIAL, " ") : text2;
  return capWords(cleaned.replace(/\s+/gu, " ").trim(), maxSearchWords(db, groupCount));
}
var MAX_GROUP_ID_LENGTH, MAX_PROJECT_GROUP_LENGTH, GRAPHITI_MAX_QUERY_LENGTH, NEO4J_GROUP, GroupIdError, FALKOR_SPECIAL, CONTROLS;
var init_escape = __esm({
  "src/lib/graphiti/escape.ts"() {
    "use strict";
    MAX_GROUP_ID_LENGTH = 128;
    MAX_PROJECT_GROUP_LENGTH = 64;
    GRAPHITI_MAX_QUERY_LENGTH = 128;
    NEO4J_GROUP = /^[A-Za-z0-9_-]+$/;
    GroupIdError = class extends Error {
      constructor(message, groupId, db) {
        super(message);
        this.groupId = groupId;
        this.db = db;
        this.name = "GroupIdError";
      }
      groupId;
      db;
    };
    FALKOR_SPECIAL = /[,.<>{}[\]"':;!@#$%^&*()\-+=~?|/\\`]/g;
    CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
  }
});

// src/lib/context/project.ts
import { closeSync, openSync, readdirSync, readSync, statSync as statSync2 } from "node:fs";
import { basename as basename3, dirname as dirname5, isAbsolute as isAbsolute2, join as join7, resolve as resolve3 } from "node:path";
function claudePathHash(path) {
  let h = 0;
  for (let i = 0; i < path.length; i++) h = (h << 5) - h + path.charCodeAt(i) | 0;
  return Math.abs(h).toString(36);
}
function claudeProjectKey(path) {
  const sanitized = path.replace(/[^a-zA-Z0-9]/g, "-");
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${claudePathHash(path)}`;
}
function resolveProjectKey(path, projectsDir, env = process.env) {
  const override = env.CLAUDE_CODE_PROJECT_DIR_NAME?.trim();
  if (override !== void 0 && override !== "" && !/[\\/]/.test(override) && override !== "." && override !== "..") return override;
  const computed = claudeProjectKey(path);
  if (computed.length <= MAX_SANITIZED_LENGTH) return computed;
  const prefix = `${computed.slice(0, MAX_SANITIZED_LENGTH)}-`;
  let names;
  try {
    names = readdirSync(projectsDir).filter((n) => n.startsWith(prefix) && n.length > prefix.length);
  } catch {
    return computed;
  }
  if (names.length === 0 || names.includes(computed)) return computed;
  let best = names[0];
  let bestTime = -1;
  for (const name of names) {
    const st = statOrUndefined(join7(projectsDir, name));
    if (st !== void 0 && st.mtimeMs > bestTime) {
      best = name;
      bestTime = st.mtimeMs;
    }
  }
  return best;
}
function statOrUndefined(path) {
  try {
    return statSync2(path);
  } catch {
    return void 0;
  }
}
function readSmall(path, max = 4096) {
  let fd;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return void 0;
  } finally {
    if (fd !== void 0) closeSync(fd);
  }
}
function findGitRoot(start) {
  let dir = resolve3(start);
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = join7(dir, ".git");
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory()) return { worktreeRoot: dir, gitDir: dotGit, mainRoot: dir };
    if (st?.isFile()) {
      const text2 = readSmall(dotGit);
      const m = text2 === void 0 ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text2);
      if (m?.[1] !== void 0) {
        const gitDir = isAbsolute2(m[1]) ? m[1] : resolve3(dir, m[1]);
        const common = readSmall(join7(gitDir, "commondir"))?.trim();
        if (common !== void 0 && common !== "") {
          const commonDir = isAbsolute2(common) ? common : resolve3(gitDir, common);
          const mainRoot = basename3(commonDir) === ".git" ? dirname5(commonDir) : dir;
          return { worktreeRoot: dir, gitDir, mainRoot };
        }
        return { worktreeRoot: dir, gitDir, mainRoot: dir };
      }
    }
    const parent = dirname5(dir);
    if (parent === dir) return void 0;
    dir = parent;
  }
  return void 0;
}
function projectSearchGroups(config, key) {
  const groups = [config.groupId];
  if (config.sourceGroups["auto-memory"] === "{project}") {
    const g = projectGroupId(config.db, key);
    if (!groups.includes(g)) groups.push(g);
  }
  return groups;
}
function detectProject(cwd, config, env = process.env) {
  const abs = resolve3(cwd);
  const git = findGitRoot(abs);
  const root = git?.mainRoot ?? abs;
  const projectsDir = join7(config.claudeConfigDir, "projects");
  const key = resolveProjectKey(root, projectsDir, env);
  const memoryDir = join7(projectsDir, key, "memory");
  return {
    cwd: abs,
    root,
    isGit: git !== void 0,
    gitDir: git?.gitDir,
    name: basename3(root) || root,
    key,
    memoryDir,
    memoryDirExists: statOrUndefined(memoryDir)?.isDirectory() ?? false,
    groupIds: projectSearchGroups(config, key)
  };
}
function readTail(path, maxBytes) {
  let fd;
  try {
    fd = openSync(path, "r");
    const size = statSync2(path).size;
    const len = Math.min(size, maxBytes);
    const buf = Buffer.alloc(len);
    const n = readSync(fd, buf, 0, len, size - len);
    let text2 = buf.subarray(0, n).toString("utf8");
    if (size > len) text2 = text2.slice(text2.indexOf("\n") + 1);
    return text2;
  } catch {
    return void 0;
  } finally {
    if (fd !== void 0) closeSync(fd);
  }
}
function recentCommitSubjects(root, n, gitDir) {
  if (n <= 0) return [];
  const dir = gitDir ?? findGitRoot(root)?.gitDir;
  if (dir === void 0) return [];
  const text2 = readTail(join7(dir, "logs", "HEAD"), 64 * 1024);
  if (text2 === void 0) return [];
  const out = [];
  const seen = /* @__PURE__ */ new Set();
  const lines = text2.split("\n");
  for (let i = lines.length - 1; i >= 0 && out.length < n; i--) {
    const line = lines[i];
    const tab = line.indexOf("	");
    if (tab < 0) continue;
    const message = line.slice(tab + 1);
    const m = /^commit(?: \([^)]*\))?: (.+)$/.exec(message);
    const subject = m?.[1]?.trim();
    if (subject === void 0 || subject === "" || seen.has(subject)) continue;
    seen.add(subject);
    out.push(subject);
  }
  return out;
}
function memoryTitle(path, fileName) {
  const head = readSmall(path, 2048) ?? "";
  const fm = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(head);
  if (fm?.[1] !== void 0) {
    const m = /^(?:name|title):\s*["']?(.+?)["']?\s*$/m.exec(fm[1]);
    if (m?.[1] !== void 0 && m[1] !== "") return m[1];
  }
  const h = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(head);
  if (h?.[1] !== void 0 && h[1] !== "") return h[1];
  return fileName.replace(/\.md$/i, "").replace(/[_-]+/g, " ").trim();
}
function recentMemoryTitles(memoryDir, n) {
  if (n <= 0) return [];
  let names;
  try {
    names = readdirSync(memoryDir);
  } catch {
    return [];
  }
  const files = [];
  for (const name of names) {
    if (!/\.md$/i.test(name) || name.toUpperCase() === "MEMORY.MD" || name.startsWith(".")) continue;
    const path = join7(memoryDir, name);
    const st = statOrUndefined(path);
    if (st?.isFile()) files.push({ name, path, mtimeMs: st.mtimeMs });
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name));
  return files.slice(0, n).map((f) => memoryTitle(f.path, f.name));
}
var MAX_SANITIZED_LENGTH;
var init_project = __esm({
  "src/lib/context/project.ts"() {
    "use strict";
    init_escape();
    MAX_SANITIZED_LENGTH = 200;
  }
});

// src/lib/util/lock-file.ts
import { linkSync, readFileSync as readFileSync7, statSync as statSync3, unlinkSync, writeFileSync as writeFileSync2 } from "node:fs";
function errnoCode(error) {
  return error?.code;
}
function readLockFile(path) {
  try {
    const st = statSync3(path);
    return { text: readFileSync7(path, "utf8"), mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return void 0;
    throw error;
  }
}
function createLockFile(path, text2, tag2) {
  const tmp = `${path}.${tag2}.tmp`;
  writeFileSync2(tmp, text2, { mode: 384, flag: "wx" });
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") return false;
    if (code === void 0 || !NO_HARD_LINKS.has(code)) throw error;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
    }
  }
  try {
    writeFileSync2(path, text2, { mode: 384, flag: "wx" });
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  }
}
function removeStaleLock(path, seen, same, token) {
  const guard = `${path}.takeover`;
  try {
    writeFileSync2(guard, token, { mode: 384, flag: "wx" });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
    try {
      if (Date.now() - statSync3(guard).mtimeMs > GUARD_STALE_MS) unlinkSync(guard);
    } catch {
    }
    return false;
  }
  try {
    const current = readLockFile(path);
    if (current === void 0) return true;
    if (!same(current, seen)) return false;
    try {
      unlinkSync(path);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") throw error;
    }
    return true;
  } finally {
    try {
      unlinkSync(guard);
    } catch {
    }
  }
}
function sameLockFile(a, b, tokenOf2) {
  const ta = tokenOf2(a.text);
  const tb = tokenOf2(b.text);
  if (ta !== void 0 && tb !== void 0) return ta === tb;
  return a.ino === b.ino && a.dev === b.dev;
}
var GUARD_STALE_MS, NO_HARD_LINKS;
var init_lock_file = __esm({
  "src/lib/util/lock-file.ts"() {
    "use strict";
    GUARD_STALE_MS = 1e4;
    NO_HARD_LINKS = /* @__PURE__ */ new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);
  }
});

// src/lib/mcp/errors.ts
function describeHttpStatus(status, body, url) {
  const snippet = body.trim().slice(0, 300);
  if (status === 421) {
    return `HTTP 421 from ${url}: ${snippet || "Invalid Host header"}. The Graphiti MCP server (python mcp >= 1.23) only accepts Host headers for localhost, 127.0.0.1 or [::1] (DNS-rebinding protection). Connect through http://localhost:<port>/mcp or http://127.0.0.1:<port>/mcp (for example via a port mapping or an SSH tunnel), or put a proxy in front that rewrites the Host header.`;
  }
  return `HTTP ${status} from ${url}${snippet ? `: ${snippet}` : ""}`;
}
function parseRetryAfter(value, now = Date.now()) {
  if (value === null || value.trim() === "") return void 0;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1e3);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return void 0;
  return Math.max(0, date - now);
}
var McpError, RETRYABLE_STATUSES, McpHttpError, McpSessionExpiredError, McpJsonRpcError, McpToolError, McpTimeoutError, McpNetworkError, McpProtocolError, McpAbortError;
var init_errors2 = __esm({
  "src/lib/mcp/errors.ts"() {
    "use strict";
    McpError = class extends Error {
      /** Server-requested delay before the next attempt (from Retry-After), in ms. */
      retryAfterMs;
      constructor(message, options2) {
        super(message, options2?.cause === void 0 ? void 0 : { cause: options2.cause });
        this.name = new.target.name;
        this.retryAfterMs = options2?.retryAfterMs;
      }
    };
    RETRYABLE_STATUSES = /* @__PURE__ */ new Set([408, 425, 429, 500, 502, 503, 504]);
    McpHttpError = class extends McpError {
      constructor(status, body, url, options2) {
        super(options2?.message ?? describeHttpStatus(status, body, url), { retryAfterMs: options2?.retryAfterMs });
        this.status = status;
        this.body = body;
        this.url = url;
        this.retryable = options2?.retryable ?? RETRYABLE_STATUSES.has(status);
      }
      status;
      body;
      url;
      kind = "http";
      retryable;
    };
    McpSessionExpiredError = class extends McpHttpError {
      constructor(status, body, url) {
        const snippet = body.trim().slice(0, 200);
        super(status, body, url, {
          retryable: true,
          message: `MCP session expired (HTTP ${status} from ${url}${snippet ? `: ${snippet}` : ""}); a new session is needed`
        });
      }
    };
    McpJsonRpcError = class extends McpError {
      constructor(code, message, data) {
        super(`JSON-RPC error ${code}: ${message}`);
        this.code = code;
        this.data = data;
      }
      code;
      data;
      kind = "jsonrpc";
      retryable = false;
    };
    McpToolError = class extends McpError {
      constructor(tool, detail) {
        super(`Tool ${tool} failed: ${detail}`);
        this.tool = tool;
        this.detail = detail;
        this.retryable = /not initialized/i.test(detail);
      }
      tool;
      detail;
      kind = "tool";
      retryable;
    };
    McpTimeoutError = class extends McpError {
      constructor(timeoutMs, what) {
        super(`Timed out after ${timeoutMs} ms waiting for ${what}`);
        this.timeoutMs = timeoutMs;
      }
      timeoutMs;
      kind = "timeout";
      retryable = true;
    };
    McpNetworkError = class extends McpError {
      constructor(message, code, cause) {
        super(message, { cause });
        this.code = code;
      }
      code;
      kind = "network";
      retryable = true;
    };
    McpProtocolError = class extends McpError {
      kind = "protocol";
      retryable;
      constructor(message, options2) {
        super(message, { cause: options2?.cause });
        this.retryable = options2?.retryable ?? false;
      }
    };
    McpAbortError = class extends McpError {
      kind = "aborted";
      retryable = false;
      constructor(reason, message = "Request aborted by caller") {
        super(message, { cause: reason });
      }
    };
  }
});

// src/lib/mcp/http.ts
import http from "node:http";
function normalizeHeaders(...sources) {
  const out = {};
  for (const source2 of sources) {
    if (!source2) continue;
    for (const [name, value] of Object.entries(source2)) out[name.toLowerCase()] = value;
  }
  return out;
}
function header(response, name) {
  const value = response.headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0];
  return value;
}
function mediaType(response) {
  return (header(response, "content-type") ?? "").split(";")[0].trim().toLowerCase();
}
function errorCode(error) {
  let current = error;
  for (let depth = 0; depth < 6 && current instanceof Object; depth++) {
    const code = current.code;
    if (typeof code === "string" && code !== "") return code;
    current = current.cause;
  }
  return void 0;
}
function isNetworkFailure(error) {
  if (!(error instanceof Error)) return false;
  if (error instanceof McpNetworkError) return true;
  if (errorCode(error) !== void 0 && !(error.name === "AbortError")) return true;
  return NETWORK_MESSAGES.test(error.message);
}
function displayUrl(url) {
  let parsed;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return String(url);
  }
  if (parsed.username === "" && parsed.password === "") return parsed.href;
  const copy = new URL(parsed.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}
function toNetworkError(error, url) {
  if (error instanceof McpNetworkError) return error;
  const code = errorCode(error);
  const origin = displayUrl(url);
  const detail = error instanceof Error ? error.message : String(error);
  const what = code && !detail.includes(code) ? `${detail} (${code})` : detail;
  return new McpNetworkError(`Network error talking to ${origin}: ${what}`, code, error);
}
async function transportFor(url) {
  if (url.protocol === "http:") return http;
  if (url.protocol === "https:") {
    httpsModule ??= import("node:https");
    return httpsModule;
  }
  throw new McpNetworkError(`Unsupported URL scheme in ${displayUrl(url)}`, "ERR_INVALID_PROTOCOL");
}
async function sendHttp(url, init) {
  init.signal.throwIfAborted();
  const mod = await transportFor(url);
  init.signal.throwIfAborted();
  return new Promise((resolve6, reject) => {
    const headers = { ...init.headers };
    if (init.body !== void 0) headers["content-length"] = Buffer.byteLength(init.body);
    let req;
    const onAbort = () => req?.destroy();
    const detach = () => init.signal.removeEventListener("abort", onAbort);
    try {
      req = mod.request(url, { method: init.method, headers }, (res) => {
        res.setEncoding("utf8");
        res.on("error", () => {
        });
        res.on("close", detach);
        resolve6({ status: res.statusCode ?? 0, url, headers: res.headers, stream: res });
      });
    } catch (error) {
      reject(toNetworkError(error, url));
      return;
    }
    init.signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) => {
      detach();
      reject(init.signal.aborted ? init.signal.reason : toNetworkError(error, url));
    });
    req.end(init.body);
  });
}
async function readText(response, signal, limit = 64 * 1024 * 1024) {
  let text2 = "";
  try {
    for await (const chunk of response.stream) {
      text2 += chunk;
      if (text2.length > limit) {
        response.stream.destroy();
        break;
      }
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw toNetworkError(error, response.url);
  }
  return text2;
}
async function readErrorBody(response, signal, limit = 64 * 1024) {
  try {
    return await readText(response, signal, limit);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return "";
  }
}
function discard(response) {
  response.stream.resume();
  response.stream.on("error", () => {
  });
}
async function sendFollowingRedirects(url, init, maxHops = MAX_REDIRECTS) {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await sendHttp(current, init);
    const status = response.status;
    if (status !== 301 && status !== 302 && status !== 303 && status !== 307 && status !== 308) return response;
    discard(response);
    const location = header(response, "location");
    if (!location) {
      throw new McpHttpError(status, "", displayUrl(current), {
        message: `HTTP ${status} redirect without a Location header from ${displayUrl(current)}`
      });
    }
    let next;
    try {
      next = new URL(location, current);
    } catch {
      throw new McpHttpError(status, "", displayUrl(current), {
        message: `HTTP ${status} redirect to an invalid Location from ${displayUrl(current)}`
      });
    }
    if (status !== 307 && status !== 308) {
      throw new McpHttpError(status, "", displayUrl(current), {
        message: `HTTP ${status} redirect from ${displayUrl(current)} to ${displayUrl(next)}: only 307/308 redirects (which keep the method and body) are followed. Configure the final URL (${displayUrl(next)}) instead.`
      });
    }
    if (next.origin !== current.origin) {
      throw new McpHttpError(status, "", displayUrl(current), {
        message: `Refusing to follow a cross-origin redirect from ${displayUrl(current)} to ${next.origin}: redirects are only followed within the same origin. Configure the MCP URL directly if that server is intended.`
      });
    }
    if (hop >= maxHops) {
      throw new McpHttpError(status, "", displayUrl(current), {
        message: `Too many redirects (more than ${maxHops}) starting at ${displayUrl(url)}`
      });
    }
    current = next;
  }
}
var httpsModule, MAX_REDIRECTS, NETWORK_MESSAGES;
var init_http = __esm({
  "src/lib/mcp/http.ts"() {
    "use strict";
    init_errors2();
    MAX_REDIRECTS = 5;
    NETWORK_MESSAGES = /^(fetch failed|terminated|socket hang up|aborted|other side closed)$/i;
  }
});

// src/lib/util/json.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
var init_json = __esm({
  "src/lib/util/json.ts"() {
    "use strict";
  }
});

// src/lib/mcp/jsonrpc.ts
function isId(value) {
  return typeof value === "string" || typeof value === "number";
}
function isJsonRpcRequest(value) {
  return isRecord(value) && typeof value.method === "string" && isId(value.id);
}
function isJsonRpcNotification(value) {
  return isRecord(value) && typeof value.method === "string" && !("id" in value && value.id !== void 0);
}
function isJsonRpcResponse(value) {
  if (!isRecord(value) || "method" in value) return false;
  if (!(value.id === null || isId(value.id))) return false;
  return "result" in value || isRecord(value.error);
}
function sameId(a, b) {
  return a !== null && a !== void 0 && b !== null && b !== void 0 && String(a) === String(b);
}
function errorObject(response) {
  const error = response.error;
  if (!isRecord(error)) return void 0;
  return {
    code: typeof error.code === "number" ? error.code : -32603,
    message: typeof error.message === "string" ? error.message : "Unknown error",
    data: error.data
  };
}
var init_jsonrpc = __esm({
  "src/lib/mcp/jsonrpc.ts"() {
    "use strict";
    init_json();
  }
});

// node_modules/eventsource-parser/dist/index.js
function noop(_arg) {
}
function createParser(config) {
  if (typeof config == "function")
    throw new TypeError(
      "`config` must be an object, got a function instead. Did you mean `createParser({onEvent: fn})`?"
    );
  const { onEvent = noop, onError = noop, onRetry = noop, onComment, maxBufferSize } = config, pendingFragments = [];
  let pendingFragmentsLength = 0, isFirstChunk = true, id, data = "", dataLines = 0, eventType, terminated = false;
  function feed(chunk) {
    if (terminated)
      throw new Error(
        "Cannot feed parser: it was terminated after exceeding the configured max buffer size. Call `reset()` to resume parsing."
      );
    if (isFirstChunk && (isFirstChunk = false, chunk.charCodeAt(0) === 239 && chunk.charCodeAt(1) === 187 && chunk.charCodeAt(2) === 191 && (chunk = chunk.slice(3))), pendingFragments.length === 0) {
      const trailing2 = processLines(chunk);
      trailing2 !== "" && (pendingFragments.push(trailing2), pendingFragmentsLength = trailing2.length), checkBufferSize();
      return;
    }
    if (chunk.indexOf(`
`) === -1 && chunk.indexOf("\r") === -1) {
      pendingFragments.push(chunk), pendingFragmentsLength += chunk.length, checkBufferSize();
      return;
    }
    pendingFragments.push(chunk);
    const input = pendingFragments.join("");
    pendingFragments.length = 0, pendingFragmentsLength = 0;
    const trailing = processLines(input);
    trailing !== "" && (pendingFragments.push(trailing), pendingFragmentsLength = trailing.length), checkBufferSize();
  }
  function checkBufferSize() {
    maxBufferSize !== void 0 && (pendingFragmentsLength + data.length <= maxBufferSize || (terminated = true, pendingFragments.length = 0, pendingFragmentsLength = 0, id = void 0, data = "", dataLines = 0, eventType = void 0, onError(
      new ParseError(`Buffered data exceeded max buffer size of ${maxBufferSize} characters`, {
        type: "max-buffer-size-exceeded"
      })
    )));
  }
  function processLines(chunk) {
    let searchIndex = 0;
    if (chunk.indexOf("\r") === -1) {
      let lfIndex = chunk.indexOf(`
`, searchIndex);
      for (; lfIndex !== -1; ) {
        if (searchIndex === lfIndex) {
          dataLines > 0 && onEvent({ id, event: eventType, data }), id = void 0, data = "", dataLines = 0, eventType = void 0, searchIndex = lfIndex + 1, lfIndex = chunk.indexOf(`
`, searchIndex);
          continue;
        }
        const firstCharCode = chunk.charCodeAt(searchIndex);
        if (isDataPrefix(chunk, searchIndex, firstCharCode)) {
          const valueStart = chunk.charCodeAt(searchIndex + 5) === SPACE ? searchIndex + 6 : searchIndex + 5, value = chunk.slice(valueStart, lfIndex);
          if (dataLines === 0 && chunk.charCodeAt(lfIndex + 1) === LF) {
            onEvent({ id, event: eventType, data: value }), id = void 0, data = "", eventType = void 0, searchIndex = lfIndex + 2, lfIndex = chunk.indexOf(`
`, searchIndex);
            continue;
          }
          data = dataLines === 0 ? value : `${data}
${value}`, dataLines++;
        } else isEventPrefix(chunk, searchIndex, firstCharCode) ? eventType = chunk.slice(
          chunk.charCodeAt(searchIndex + 6) === SPACE ? searchIndex + 7 : searchIndex + 6,
          lfIndex
        ) || void 0 : parseLine(chunk, searchIndex, lfIndex);
        searchIndex = lfIndex + 1, lfIndex = chunk.indexOf(`
`, searchIndex);
      }
      return chunk.slice(searchIndex);
    }
    for (; searchIndex < chunk.length; ) {
      const crIndex = chunk.indexOf("\r", searchIndex), lfIndex = chunk.indexOf(`
`, searchIndex);
      let lineEnd = -1;
      if (crIndex !== -1 && lfIndex !== -1 ? lineEnd = crIndex < lfIndex ? crIndex : lfIndex : crIndex !== -1 ? crIndex === chunk.length - 1 ? lineEnd = -1 : lineEnd = crIndex : lfIndex !== -1 && (lineEnd = lfIndex), lineEnd === -1)
        break;
      parseLine(chunk, searchIndex, lineEnd), searchIndex = lineEnd + 1, chunk.charCodeAt(searchIndex - 1) === CR && chunk.charCodeAt(searchIndex) === LF && searchIndex++;
    }
    return chunk.slice(searchIndex);
  }
  function parseLine(chunk, start, end) {
    if (start === end) {
      dispatchEvent();
      return;
    }
    const firstCharCode = chunk.charCodeAt(start);
    if (isDataPrefix(chunk, start, firstCharCode)) {
      const valueStart = chunk.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, value2 = chunk.slice(valueStart, end);
      data = dataLines === 0 ? value2 : `${data}
${value2}`, dataLines++;
      return;
    }
    if (isEventPrefix(chunk, start, firstCharCode)) {
      eventType = chunk.slice(chunk.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || void 0;
      return;
    }
    if (firstCharCode === 105 && chunk.charCodeAt(start + 1) === 100 && chunk.charCodeAt(start + 2) === 58) {
      const value2 = chunk.slice(chunk.charCodeAt(start + 3) === SPACE ? start + 4 : start + 3, end);
      value2.includes("\0") || (id = value2);
      return;
    }
    if (firstCharCode === 58) {
      if (onComment) {
        const line2 = chunk.slice(start, end);
        onComment(line2.slice(chunk.charCodeAt(start + 1) === SPACE ? 2 : 1));
      }
      return;
    }
    const line = chunk.slice(start, end), fieldSeparatorIndex = line.indexOf(":");
    if (fieldSeparatorIndex === -1) {
      processField(line, "", line);
      return;
    }
    const field = line.slice(0, fieldSeparatorIndex), offset = line.charCodeAt(fieldSeparatorIndex + 1) === SPACE ? 2 : 1, value = line.slice(fieldSeparatorIndex + offset);
    processField(field, value, line);
  }
  function processField(field, value, line) {
    switch (field) {
      case "event":
        eventType = value || void 0;
        break;
      case "data":
        data = dataLines === 0 ? value : `${data}
${value}`, dataLines++;
        break;
      case "id":
        value.includes("\0") || (id = value);
        break;
      case "retry":
        /^\d+$/.test(value) ? onRetry(parseInt(value, 10)) : onError(
          new ParseError(`Invalid \`retry\` value: "${value}"`, {
            type: "invalid-retry",
            value,
            line
          })
        );
        break;
      default:
        onError(
          new ParseError(
            `Unknown field "${field.length > 20 ? `${field.slice(0, 20)}\u2026` : field}"`,
            { type: "unknown-field", field, value, line }
          )
        );
        break;
    }
  }
  function dispatchEvent() {
    dataLines > 0 && onEvent({
      id,
      event: eventType,
      data
    }), id = void 0, data = "", dataLines = 0, eventType = void 0;
  }
  function reset(options2 = {}) {
    if (options2.consume && pendingFragments.length > 0) {
      const incompleteLine = pendingFragments.join("");
      parseLine(incompleteLine, 0, incompleteLine.length);
    }
    isFirstChunk = true, id = void 0, data = "", dataLines = 0, eventType = void 0, pendingFragments.length = 0, pendingFragmentsLength = 0, terminated = false;
  }
  return { feed, reset };
}
function isDataPrefix(chunk, i, firstCharCode) {
  return firstCharCode === 100 && chunk.charCodeAt(i + 1) === 97 && chunk.charCodeAt(i + 2) === 116 && chunk.charCodeAt(i + 3) === 97 && chunk.charCodeAt(i + 4) === 58;
}
function isEventPrefix(chunk, i, firstCharCode) {
  return firstCharCode === 101 && chunk.charCodeAt(i + 1) === 118 && chunk.charCodeAt(i + 2) === 101 && chunk.charCodeAt(i + 3) === 110 && chunk.charCodeAt(i + 4) === 116 && chunk.charCodeAt(i + 5) === 58;
}
var ParseError, LF, CR, SPACE;
var init_dist = __esm({
  "node_modules/eventsource-parser/dist/index.js"() {
    ParseError = class extends Error {
      constructor(message, options2) {
        super(message), this.name = "ParseError", this.type = options2.type, this.field = options2.field, this.value = options2.value, this.line = options2.line;
      }
    };
    LF = 10;
    CR = 13;
    SPACE = 32;
  }
});

// src/lib/mcp/sse.ts
import { TextDecoder as TextDecoder2 } from "node:util";
async function* readSseEvents(chunks, hooks = {}) {
  const queue = [];
  const parser = createParser({
    onEvent: (event) => queue.push({ event: event.event, id: event.id, data: event.data }),
    onRetry: (ms) => hooks.onRetry?.(ms),
    onComment: (comment) => hooks.onComment?.(comment)
  });
  let decoder;
  let atStart = true;
  let afterCr = false;
  for await (const chunk of chunks) {
    let text2;
    if (typeof chunk === "string") {
      text2 = chunk;
    } else {
      decoder ??= new TextDecoder2();
      text2 = decoder.decode(chunk, { stream: true });
    }
    if (atStart && text2 !== "") {
      atStart = false;
      if (text2.charCodeAt(0) === 65279) text2 = text2.slice(1);
    }
    if (text2 !== "") {
      if (afterCr && text2.charCodeAt(0) === 10) text2 = text2.slice(1);
      afterCr = text2.endsWith("\r");
      parser.feed(text2.replace(/\r\n?/g, "\n"));
    }
    while (queue.length > 0) yield queue.shift();
  }
}
function decodeEvent(event) {
  if (event.event !== void 0 && event.event !== "message") return { kind: "other", event: event.event, data: event.data };
  if (event.data.trim() === "") return { kind: "empty" };
  try {
    return { kind: "message", message: JSON.parse(event.data) };
  } catch (error) {
    return { kind: "invalid", error };
  }
}
var init_sse = __esm({
  "src/lib/mcp/sse.ts"() {
    "use strict";
    init_dist();
  }
});

// src/lib/mcp/transport.ts
function protocolHeader(version) {
  return version !== void 0 && version !== LEGACY_PROTOCOL_VERSION ? { "mcp-protocol-version": version } : {};
}
function answerServerRequest(request) {
  if (request.method === "ping") return { jsonrpc: "2.0", id: request.id, result: {} };
  return {
    jsonrpc: "2.0",
    id: request.id,
    error: { code: -32601, message: `Method not found: ${request.method}` }
  };
}
async function httpError(response, signal, options2) {
  const body = await readErrorBody(response, signal);
  const url = displayUrl(response.url);
  const status = response.status;
  if (options2.sentSession) {
    if (status === 404) return new McpSessionExpiredError(status, body, url);
    if (status === 400 && /No valid session ID provided/i.test(body)) return new McpSessionExpiredError(status, body, url);
    if (options2.legacySessionPatterns && status === 400 && /session/i.test(body)) return new McpSessionExpiredError(status, body, url);
  }
  return new McpHttpError(status, body, url, { retryAfterMs: parseRetryAfter(header(response, "retry-after") ?? null) });
}
function abortable(promise, signal) {
  if (signal.aborted) {
    promise.catch(() => {
    });
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve6, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve6(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      }
    );
  });
}
var SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSION;
var init_transport = __esm({
  "src/lib/mcp/transport.ts"() {
    "use strict";
    init_errors2();
    init_http();
    SUPPORTED_PROTOCOL_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
    LATEST_PROTOCOL_VERSION = "2025-11-25";
    LEGACY_PROTOCOL_VERSION = "2024-11-05";
  }
});

// src/lib/mcp/legacy-sse.ts
var LegacySseTransport;
var init_legacy_sse = __esm({
  "src/lib/mcp/legacy-sse.ts"() {
    "use strict";
    init_errors2();
    init_http();
    init_jsonrpc();
    init_sse();
    init_transport();
    LegacySseTransport = class {
      kind = "sse";
      protocolVersion;
      #options;
      #connection;
      /** Increments for every `endpoint` event: each one is a new session. */
      #gen = 0;
      #openedGen = -1;
      #initializedGen = -1;
      #pending = /* @__PURE__ */ new Map();
      constructor(options2) {
        this.#options = options2;
      }
      /** The legacy transport has no session header; the endpoint URI carries it. */
      get sessionId() {
        return void 0;
      }
      get endpoint() {
        return this.#connection?.endpoint;
      }
      get stale() {
        const c = this.#connection;
        return c === void 0 || c.closed || this.#gen !== this.#initializedGen;
      }
      async open(signal) {
        this.protocolVersion = void 0;
        const current = this.#connection;
        const reusable = current !== void 0 && !current.closed && (current.endpoint === void 0 || this.#gen !== this.#initializedGen);
        if (!reusable) {
          if (current && !current.closed) this.#closeConnection(current, new McpNetworkError("Legacy SSE session replaced", void 0));
          this.#connection = await this.#connect(signal);
        }
        const connection = this.#connection;
        await abortable(connection.ready, signal);
        this.#openedGen = connection.endpointGen;
      }
      markInitialized() {
        this.#initializedGen = this.#openedGen;
      }
      async request(message, signal) {
        const connection = this.#live();
        const key = String(message.id);
        const response = new Promise((resolve6, reject) => {
          this.#pending.set(key, { resolve: resolve6, reject, connection });
        });
        response.catch(() => {
        });
        try {
          await this.#post(connection, message, signal);
          return await abortable(response, signal);
        } finally {
          this.#pending.delete(key);
        }
      }
      async notify(message, signal) {
        await this.#post(this.#live(), message, signal);
      }
      async close() {
        const connection = this.#connection;
        this.#connection = void 0;
        if (connection) this.#closeConnection(connection, new McpAbortError(void 0, "MCP client closed"));
      }
      #live() {
        const connection = this.#connection;
        if (!connection || connection.closed || connection.endpoint === void 0) {
          throw new McpNetworkError("The legacy SSE stream is not connected", void 0);
        }
        return connection;
      }
      #headers(extra) {
        return normalizeHeaders(this.#options.headers, protocolHeader(this.protocolVersion), extra);
      }
      async #post(connection, message, signal) {
        const endpoint = connection.endpoint;
        const response = await sendFollowingRedirects(endpoint, {
          method: "POST",
          headers: this.#headers({ accept: "application/json, text/event-stream", "content-type": "application/json" }),
          body: JSON.stringify(message),
          signal
        });
        if (response.status < 200 || response.status > 299) {
          throw await httpError(response, signal, { sentSession: true, legacySessionPatterns: true });
        }
        await readText(response, signal, 64 * 1024);
      }
      /** Opens the GET stream on the first candidate URL that serves one. */
      async #connect(signal) {
        let lastError;
        for (const candidate of this.#options.candidates) {
          try {
            return await this.#connectTo(candidate, signal);
          } catch (error) {
            lastError = error;
            if (signal.aborted) throw error;
            if (!(error instanceof McpHttpError && (error.status === 404 || error.status === 405))) throw error;
            this.#options.logger.debug("mcp legacy sse url not found", { url: displayUrl(candidate), status: error.status });
          }
        }
        throw lastError;
      }
      async #connectTo(url, signal) {
        const controller = new AbortController();
        const onAbort = () => controller.abort(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        try {
          if (signal.aborted) throw signal.reason;
          const response = await sendFollowingRedirects(url, {
            method: "GET",
            headers: this.#headers({ accept: "text/event-stream", "cache-control": "no-cache" }),
            signal: controller.signal
          });
          if (response.status < 200 || response.status > 299) {
            const body = await readErrorBody(response, controller.signal);
            controller.abort();
            throw new McpHttpError(response.status, body, displayUrl(response.url));
          }
          if (mediaType(response) !== "text/event-stream") {
            controller.abort();
            throw new McpProtocolError(
              `Legacy SSE endpoint ${displayUrl(response.url)} answered with "${mediaType(response) || "(none)"}" instead of text/event-stream`
            );
          }
          let resolveReady;
          let rejectReady;
          const ready = new Promise((resolve6, reject) => {
            resolveReady = resolve6;
            rejectReady = reject;
          });
          ready.catch(() => {
          });
          const connection = {
            controller,
            url: response.url,
            endpoint: void 0,
            endpointGen: -1,
            closed: false,
            ready,
            resolveReady,
            rejectReady
          };
          this.#options.logger.debug("mcp legacy sse stream open", { url: displayUrl(response.url) });
          void this.#pump(connection, response);
          return connection;
        } finally {
          signal.removeEventListener("abort", onAbort);
        }
      }
      async #pump(connection, response) {
        let reason;
        try {
          for await (const event of readSseEvents(response.stream)) {
            const decoded = decodeEvent(event);
            if (decoded.kind === "other") {
              if (decoded.event === "endpoint") this.#onEndpoint(connection, decoded.data);
              continue;
            }
            if (decoded.kind === "invalid") {
              this.#options.logger.warn("mcp legacy sse event with invalid JSON ignored", { error: decoded.error });
              continue;
            }
            if (decoded.kind !== "message") continue;
            const items = Array.isArray(decoded.message) ? decoded.message : [decoded.message];
            for (const item of items) this.#dispatch(connection, item);
          }
        } catch (error) {
          reason = error;
        }
        if (!connection.closed) {
          this.#options.logger.info("mcp legacy sse stream closed", { error: reason });
          const error = reason === void 0 ? new McpNetworkError(`The legacy SSE stream ${displayUrl(connection.url)} was closed by the server`, void 0) : toNetworkError(reason, connection.url);
          this.#closeConnection(connection, error);
        }
      }
      #onEndpoint(connection, data) {
        let endpoint;
        try {
          endpoint = new URL(data.trim(), connection.url);
        } catch (error) {
          this.#closeConnection(connection, new McpProtocolError(`Invalid legacy SSE endpoint "${data}"`, { cause: error }));
          return;
        }
        if (endpoint.origin !== connection.url.origin) {
          this.#closeConnection(
            connection,
            new McpProtocolError(`Refusing the legacy SSE endpoint ${endpoint.origin}: it is not on the SSE stream's origin ${connection.url.origin}`)
          );
          return;
        }
        const first = connection.endpoint === void 0;
        connection.endpoint = endpoint;
        connection.endpointGen = ++this.#gen;
        if (first) {
          this.#options.logger.debug("mcp legacy sse endpoint", { path: endpoint.pathname });
          connection.resolveReady();
          return;
        }
        this.#options.logger.info("mcp legacy sse announced a new endpoint: new session");
      }
      #dispatch(connection, item) {
        if (isJsonRpcResponse(item)) {
          const pending = item.id === null ? void 0 : this.#pending.get(String(item.id));
          if (pending && pending.connection === connection) pending.resolve(item);
          else this.#options.logger.debug("mcp response for another request ignored", { id: item.id });
          return;
        }
        if (isJsonRpcRequest(item)) {
          const reply = answerServerRequest(item);
          if (connection.endpoint === void 0) return;
          this.#post(connection, reply, AbortSignal.timeout(this.#options.backgroundTimeoutMs)).catch(
            (error) => this.#options.logger.warn("mcp reply to server request failed", { method: item.method, error })
          );
          return;
        }
        if (isJsonRpcNotification(item)) this.#options.logger.debug("mcp notification", { method: item.method });
      }
      #closeConnection(connection, error) {
        if (connection.closed) return;
        connection.closed = true;
        connection.rejectReady(error);
        connection.controller.abort(error);
        this.#rejectPending((p) => p.connection === connection, error);
      }
      #rejectPending(predicate, error) {
        for (const [key, pending] of this.#pending) {
          if (!predicate(pending)) continue;
          this.#pending.delete(key);
          pending.reject(error);
        }
      }
    };
  }
});

// src/lib/util/backoff.ts
function backoffDelay(policy, attempt2, random = Math.random) {
  const base = Math.min(policy.maxMs, policy.initialMs * (policy.factor ?? 2) ** Math.max(0, attempt2 - 1));
  const spread = policy.low + (policy.high - policy.low) * random();
  return Math.max(0, Math.round(Math.min(policy.maxMs, base * spread)));
}
function sleep(ms, signal) {
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  return new Promise((resolve6, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve6();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
var init_backoff = __esm({
  "src/lib/util/backoff.ts"() {
    "use strict";
  }
});

// src/lib/mcp/streamable.ts
var ACCEPT_BOTH, DEFAULT_RECONNECT_DELAY_MS, MAX_RECONNECTS, StreamableHttpTransport;
var init_streamable = __esm({
  "src/lib/mcp/streamable.ts"() {
    "use strict";
    init_errors2();
    init_http();
    init_jsonrpc();
    init_sse();
    init_backoff();
    init_transport();
    ACCEPT_BOTH = "application/json, text/event-stream";
    DEFAULT_RECONNECT_DELAY_MS = 1e3;
    MAX_RECONNECTS = 2;
    StreamableHttpTransport = class {
      kind = "streamable-http";
      protocolVersion;
      stale = false;
      #sessionId;
      /** Where requests go; updated to the final URL after a redirect. */
      #endpoint;
      #options;
      constructor(url, options2) {
        this.#endpoint = url;
        this.#options = options2;
      }
      get sessionId() {
        return this.#sessionId;
      }
      get endpoint() {
        return this.#endpoint;
      }
      async open() {
        this.#sessionId = void 0;
        this.protocolVersion = void 0;
      }
      markInitialized() {
      }
      async request(message, signal) {
        const response = await this.#post(message, signal);
        if (response.status === 202 || response.status === 204) {
          discard(response);
          throw new McpProtocolError(`HTTP ${response.status} without a body in reply to ${message.method} from ${displayUrl(response.url)}`);
        }
        const type = mediaType(response);
        if (type === "application/json") return this.#fromJson(response, message, signal);
        if (type === "text/event-stream") return this.#fromSse(response, message, signal);
        discard(response);
        throw new McpProtocolError(
          `Unexpected content type "${type || "(none)"}" in reply to ${message.method} from ${displayUrl(response.url)} (expected application/json or text/event-stream)`
        );
      }
      async notify(message, signal) {
        const response = await this.#post(message, signal);
        await readText(response, signal, 64 * 1024);
      }
      async close() {
        const sessionId = this.#sessionId;
        this.#sessionId = void 0;
        if (sessionId === void 0) return;
        try {
          const response = await sendFollowingRedirects(this.#endpoint, {
            method: "DELETE",
            headers: this.#headers({}, sessionId),
            signal: AbortSignal.timeout(this.#options.backgroundTimeoutMs)
          });
          discard(response);
          this.#options.logger.debug("mcp session closed", { status: response.status });
        } catch (error) {
          this.#options.logger.debug("mcp session delete failed (ignored)", { error });
        }
      }
      #headers(extra, sessionId = this.#sessionId) {
        return normalizeHeaders(
          this.#options.headers,
          sessionId !== void 0 ? { "mcp-session-id": sessionId } : void 0,
          protocolHeader(this.protocolVersion),
          extra
        );
      }
      /** Sends a request (following redirects), captures the session id, maps non-2xx to typed errors. */
      async #send(method, extra, body, signal) {
        const headers = this.#headers(extra);
        const sentSession = headers["mcp-session-id"] !== void 0;
        const response = await sendFollowingRedirects(this.#endpoint, { method, headers, body, signal });
        if (response.url.href !== this.#endpoint.href) {
          this.#options.logger.info("mcp endpoint redirected", { from: displayUrl(this.#endpoint), to: displayUrl(response.url) });
          this.#endpoint = response.url;
        }
        const sessionId = header(response, "mcp-session-id");
        if (sessionId && sessionId !== this.#sessionId) this.#sessionId = sessionId;
        if (response.status < 200 || response.status > 299) throw await httpError(response, signal, { sentSession });
        return response;
      }
      #post(message, signal) {
        return this.#send("POST", { accept: ACCEPT_BOTH, "content-type": "application/json" }, JSON.stringify(message), signal);
      }
      async #fromJson(response, message, signal) {
        const text2 = await readText(response, signal);
        let parsed;
        try {
          parsed = JSON.parse(text2);
        } catch (error) {
          throw new McpProtocolError(`Invalid JSON in reply to ${message.method} from ${displayUrl(response.url)}`, { cause: error });
        }
        const messages = Array.isArray(parsed) ? parsed : [parsed];
        let match;
        for (const item of messages) match = this.#dispatch(item, message.id) ?? match;
        if (match) return match;
        const lone = messages.length === 1 ? messages[0] : void 0;
        if (isJsonRpcResponse(lone) && lone.error !== void 0 && (lone.id === null || lone.id === void 0)) return lone;
        throw new McpProtocolError(`No response with id ${String(message.id)} in the JSON reply to ${message.method} from ${displayUrl(response.url)}`);
      }
      async #fromSse(first, message, signal) {
        const state = { lastEventId: void 0, retryMs: void 0 };
        let response = first;
        for (let reconnects = 0; ; reconnects++) {
          let failure;
          try {
            const match = await this.#readStream(response, message.id, state);
            if (match) return match;
          } catch (error) {
            if (signal.aborted) throw signal.reason;
            if (!isNetworkFailure(error)) throw error;
            failure = error;
          }
          if (state.lastEventId === void 0) {
            const why = `The SSE stream for ${message.method} ended before the response arrived, and it carried no event id to resume from`;
            if (failure !== void 0) {
              const network = toNetworkError(failure, response.url);
              throw new McpNetworkError(`${why}: ${network.message}`, network.code, failure);
            }
            throw new McpProtocolError(why, { retryable: true });
          }
          if (reconnects >= MAX_RECONNECTS) {
            throw new McpProtocolError(`The SSE stream for ${message.method} ended before the response arrived ${reconnects + 1} times; giving up`, {
              retryable: true,
              cause: failure
            });
          }
          const delay = state.retryMs ?? DEFAULT_RECONNECT_DELAY_MS;
          this.#options.logger.debug("mcp sse stream ended early; resuming", { method: message.method, delayMs: delay, attempt: reconnects + 1 });
          await sleep(delay, signal);
          response = await this.#send("GET", { accept: "text/event-stream", "last-event-id": state.lastEventId }, void 0, signal);
          if (mediaType(response) !== "text/event-stream") {
            discard(response);
            throw new McpProtocolError(`Resuming the SSE stream at ${displayUrl(response.url)} returned "${mediaType(response) || "(none)"}" instead of text/event-stream`);
          }
        }
      }
      /** Reads events until the response for `id` arrives (resolves it) or the stream ends (undefined). */
      async #readStream(response, id, state) {
        const events = readSseEvents(response.stream, {
          onRetry: (ms) => {
            state.retryMs = ms;
          }
        });
        for await (const event of events) {
          if (event.id !== void 0) state.lastEventId = event.id === "" ? void 0 : event.id;
          const decoded = decodeEvent(event);
          if (decoded.kind === "invalid") {
            this.#options.logger.warn("mcp sse event with invalid JSON ignored", { error: decoded.error });
            continue;
          }
          if (decoded.kind !== "message") continue;
          const items = Array.isArray(decoded.message) ? decoded.message : [decoded.message];
          let match;
          for (const item of items) match = this.#dispatch(item, id) ?? match;
          if (match) return match;
        }
        return void 0;
      }
      /** Returns the response if it is the one we wait for; answers server requests; ignores the rest. */
      #dispatch(item, id) {
        if (isJsonRpcResponse(item)) {
          if (sameId(item.id, id)) return item;
          this.#options.logger.debug("mcp response for another request ignored", { id: item.id });
          return void 0;
        }
        if (isJsonRpcRequest(item)) {
          this.#answer(item);
          return void 0;
        }
        if (isJsonRpcNotification(item)) {
          this.#options.logger.debug("mcp notification", { method: item.method });
          return void 0;
        }
        this.#options.logger.debug("mcp message of unknown shape ignored");
        return void 0;
      }
      /** Answers a server-to-client request with a new POST (fire-and-forget). */
      #answer(request) {
        const reply = answerServerRequest(request);
        this.#options.logger.debug("mcp server request answered", { method: request.method, ok: reply.error === void 0 });
        this.#post(reply, AbortSignal.timeout(this.#options.backgroundTimeoutMs)).then(
          (response) => discard(response),
          (error) => this.#options.logger.warn("mcp reply to server request failed", { method: request.method, error })
        );
      }
    };
  }
});

// src/lib/mcp/client.ts
function toToolInfo(raw) {
  if (!isRecord(raw) || typeof raw.name !== "string") return void 0;
  const tool = {
    name: raw.name,
    inputSchema: isRecord(raw.inputSchema) ? raw.inputSchema : { type: "object" }
  };
  if (typeof raw.description === "string") tool.description = raw.description;
  if (isRecord(raw.outputSchema)) tool.outputSchema = raw.outputSchema;
  return tool;
}
var DEFAULT_TIMEOUT_MS, DEFAULT_CLIENT_INFO, BACKGROUND_TIMEOUT_MS, MAX_TOOL_PAGES, NOT_A_LEGACY_ENDPOINT, McpClient;
var init_client = __esm({
  "src/lib/mcp/client.ts"() {
    "use strict";
    init_log();
    init_errors2();
    init_http();
    init_json();
    init_jsonrpc();
    init_legacy_sse();
    init_streamable();
    init_transport();
    init_transport();
    DEFAULT_TIMEOUT_MS = 3e4;
    DEFAULT_CLIENT_INFO = { name: "graphiti-memory-sync", version: "0.1.0" };
    BACKGROUND_TIMEOUT_MS = 5e3;
    MAX_TOOL_PAGES = 1e3;
    NOT_A_LEGACY_ENDPOINT = /* @__PURE__ */ new Set([400, 404, 405, 406, 409]);
    McpClient = class {
      #options;
      #url;
      #logger;
      #timeoutMs;
      #headers;
      #transport;
      #connecting;
      #reinitializing;
      /** Increments with every successful initialize (a new session). */
      #generation = 0;
      /** The next request is the first one after initialize (old servers' -32602 race). */
      #firstAfterInit = false;
      /**
       * A re-initialize has started and not succeeded yet: the transport has dropped its old session
       * (the new initialize must go without it), so a request sent now would carry no session id and
       * be refused for good (FastMCP: 400 "Missing session ID"). Requests wait for, or redo, the re-initialize.
       */
      #needsSession = false;
      #nextId = 1;
      #protocolVersion;
      #serverInfo;
      #closeController = new AbortController();
      constructor(options2) {
        this.#options = options2;
        try {
          this.#url = new URL(options2.url);
        } catch {
          throw new TypeError(`Invalid MCP server URL: ${options2.url}`);
        }
        this.#logger = (options2.logger ?? nullLogger).child({ component: "mcp" });
        this.#timeoutMs = options2.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        this.#headers = normalizeHeaders(options2.headers, options2.authToken ? { authorization: `Bearer ${options2.authToken}` } : void 0);
      }
      get sessionId() {
        return this.#transport?.sessionId;
      }
      get protocolVersion() {
        return this.#protocolVersion;
      }
      get serverInfo() {
        return this.#serverInfo;
      }
      get transportKind() {
        return this.#transport?.kind;
      }
      /** Idempotent: initializes a session (and waits for the `initialized` 202) if needed. */
      async connect(signal) {
        if (this.#transport !== void 0 && !this.#transport.stale) return;
        const deadline = this.#deadline(this.#timeoutMs, signal, "initialize");
        try {
          await this.#ensureSession(deadline.signal);
        } catch (error) {
          throw deadline.convert(error);
        } finally {
          deadline.dispose();
        }
      }
      /** All tools, following `nextCursor` pagination. */
      async listTools(options2) {
        const tools = [];
        const seen = /* @__PURE__ */ new Set();
        let cursor;
        for (let page = 0; page < MAX_TOOL_PAGES; page++) {
          const result = await this.request("tools/list", cursor === void 0 ? {} : { cursor }, { signal: options2?.signal });
          if (!isRecord(result) || !Array.isArray(result.tools)) throw new McpProtocolError("tools/list returned no tools array");
          for (const raw of result.tools) {
            const tool = toToolInfo(raw);
            if (tool) tools.push(tool);
          }
          const next = result.nextCursor;
          if (typeof next !== "string" || next === "" || seen.has(next)) return tools;
          seen.add(next);
          cursor = next;
        }
        return tools;
      }
      async callTool(name, args, options2) {
        const result = await this.request("tools/call", { name, arguments: args }, options2);
        if (!isRecord(result)) throw new McpProtocolError(`tools/call ${name} returned a result that is not an object`);
        const content = Array.isArray(result.content) ? result.content.filter((item) => isRecord(item) && typeof item.type === "string") : [];
        const out = { content };
        if (isRecord(result.structuredContent)) out.structuredContent = result.structuredContent;
        if (result.isError === true) out.isError = true;
        return out;
      }
      /** A raw JSON-RPC request; resolves with `result`, rejects with a typed McpError. */
      async request(method, params, options2) {
        const timeoutMs = options2?.timeoutMs ?? this.#timeoutMs;
        const deadline = this.#deadline(timeoutMs, options2?.signal, `the ${method} response from ${displayUrl(this.#url)}`);
        try {
          return await this.#requestWithRecovery(method, params, deadline);
        } catch (error) {
          throw deadline.convert(error);
        } finally {
          deadline.dispose();
        }
      }
      /** Ends the session (DELETE on Streamable HTTP, stream abort on legacy SSE). Never throws. */
      async close() {
        const transport = this.#transport;
        this.#transport = void 0;
        this.#connecting = void 0;
        this.#reinitializing = void 0;
        this.#needsSession = false;
        this.#closeController.abort(new McpAbortError(void 0, "MCP client closed"));
        this.#closeController = new AbortController();
        this.#protocolVersion = void 0;
        if (transport) await transport.close();
      }
      async #requestWithRecovery(method, params, deadline) {
        const signal = deadline.signal;
        await this.#ensureSession(signal);
        let recovered = false;
        for (; ; ) {
          if (this.#needsSession) await this.#reinitialize(this.#generation, signal);
          const transport = this.#transport;
          if (transport === void 0) throw new McpAbortError(void 0, "MCP client closed");
          const generation = this.#generation;
          const first = this.#firstAfterInit;
          this.#firstAfterInit = false;
          const id = this.#nextId++;
          try {
            const response = await transport.request({ jsonrpc: "2.0", id, method, ...params === void 0 ? {} : { params } }, signal);
            const error = response.error === void 0 ? void 0 : errorObject(response);
            if (error) throw new McpJsonRpcError(error.code, error.message, error.data);
            return response.result;
          } catch (error) {
            if (signal.aborted) {
              if (deadline.timedOut()) this.#sendCancelled(transport, id, method);
              throw error;
            }
            if (recovered) throw error;
            const reason = error instanceof McpSessionExpiredError ? "session expired" : first && error instanceof McpJsonRpcError && error.code === -32602 && /Invalid request parameters/i.test(error.message) ? "request rejected right after initialize (-32602)" : void 0;
            if (reason === void 0) throw error;
            recovered = true;
            this.#logger.info("mcp re-initializing and retrying once", { method, reason });
            await this.#reinitialize(generation, signal);
          }
        }
      }
      async #ensureSession(signal) {
        signal.throwIfAborted();
        if (this.#transport === void 0) {
          if (this.#connecting === void 0) {
            const shared = this.#sharedDeadline();
            const connecting = this.#establish(shared.signal).finally(() => {
              shared.dispose();
              if (this.#connecting === connecting) this.#connecting = void 0;
            });
            connecting.catch(() => {
            });
            this.#connecting = connecting;
          }
          await abortable(this.#connecting, signal);
        } else if (this.#transport.stale) {
          this.#logger.info("mcp transport session changed; initializing again");
          await this.#reinitialize(this.#generation, signal);
        } else if (this.#needsSession) {
          await this.#reinitialize(this.#generation, signal);
        }
      }
      /** Picks the transport: Streamable HTTP, or legacy SSE (forced, or as the 'auto' fallback). */
      async #establish(signal) {
        const mode = this.#options.transport ?? "auto";
        const closeSignal = this.#closeController.signal;
        let transport;
        if (mode === "sse") {
          transport = this.#legacy();
          await this.#initializeOrClose(transport, signal);
        } else {
          transport = new StreamableHttpTransport(this.#url, this.#transportOptions());
          try {
            await this.#initialize(transport, signal);
          } catch (error) {
            const fallback = mode === "auto" && !signal.aborted && error instanceof McpHttpError && !(error instanceof McpSessionExpiredError) && (error.status === 400 || error.status === 404 || error.status === 405);
            if (!fallback) {
              void transport.close();
              throw error;
            }
            this.#logger.info("mcp streamable http initialize failed; trying legacy sse", { status: error.status });
            transport = this.#legacy();
            try {
              await this.#initializeOrClose(transport, signal);
            } catch (legacyError) {
              this.#logger.info("mcp legacy sse failed too", { error: legacyError });
              if (!signal.aborted && legacyError instanceof McpHttpError && NOT_A_LEGACY_ENDPOINT.has(legacyError.status)) throw error;
              throw legacyError;
            }
          }
        }
        if (closeSignal.aborted) {
          await transport.close();
          throw new McpAbortError(void 0, "MCP client closed");
        }
        this.#transport = transport;
      }
      async #initializeOrClose(transport, signal) {
        try {
          await this.#initialize(transport, signal);
        } catch (error) {
          await transport.close();
          throw error;
        }
      }
      #legacy() {
        const candidates = [];
        if (this.#options.sseUrl) {
          candidates.push(new URL(this.#options.sseUrl, this.#url));
        } else {
          const conventional = new URL("/sse", this.#url);
          candidates.push(conventional);
          if (conventional.href !== this.#url.href) candidates.push(this.#url);
        }
        return new LegacySseTransport({ ...this.#transportOptions(), candidates });
      }
      #transportOptions() {
        return {
          headers: this.#headers,
          logger: this.#logger,
          backgroundTimeoutMs: Math.min(this.#timeoutMs, BACKGROUND_TIMEOUT_MS)
        };
      }
      /** Re-initializes unless another caller already replaced the session `generation`. */
      async #reinitialize(generation, signal) {
        const transport = this.#transport;
        if (transport === void 0) throw new McpAbortError(void 0, "MCP client closed");
        if (generation !== this.#generation && !transport.stale) return;
        if (this.#reinitializing === void 0) {
          this.#needsSession = true;
          const shared = this.#sharedDeadline();
          const reinitializing = this.#initialize(transport, shared.signal).finally(() => {
            shared.dispose();
            if (this.#reinitializing === reinitializing) this.#reinitializing = void 0;
          });
          reinitializing.catch(() => {
          });
          this.#reinitializing = reinitializing;
        }
        await abortable(this.#reinitializing, signal);
      }
      /** initialize → check the negotiated version → notifications/initialized (202 awaited). */
      async #initialize(transport, signal) {
        await transport.open(signal);
        const offered = transport.kind === "sse" ? LEGACY_PROTOCOL_VERSION : this.#options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
        const id = this.#nextId++;
        const response = await transport.request(
          {
            jsonrpc: "2.0",
            id,
            method: "initialize",
            params: { protocolVersion: offered, capabilities: {}, clientInfo: this.#options.clientInfo ?? { ...DEFAULT_CLIENT_INFO } }
          },
          signal
        );
        const error = response.error === void 0 ? void 0 : errorObject(response);
        if (error) throw new McpJsonRpcError(error.code, error.message, error.data);
        const result = response.result;
        if (!isRecord(result) || typeof result.protocolVersion !== "string") {
          throw new McpProtocolError("The initialize result has no protocolVersion");
        }
        const version = result.protocolVersion;
        if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
          throw new McpProtocolError(
            `The server chose MCP protocol version "${version}", which this client does not support (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`
          );
        }
        transport.protocolVersion = version;
        await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" }, signal);
        transport.markInitialized();
        const info = result.serverInfo;
        this.#serverInfo = isRecord(info) && typeof info.name === "string" ? { name: info.name, version: typeof info.version === "string" ? info.version : "" } : void 0;
        this.#protocolVersion = version;
        this.#generation++;
        this.#firstAfterInit = true;
        this.#needsSession = false;
        this.#logger.debug("mcp initialized", { transport: transport.kind, protocolVersion: version, server: this.#serverInfo?.name });
      }
      #sendCancelled(transport, id, method) {
        if (method === "initialize" || transport.stale) return;
        transport.notify(
          { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "Request timed out" } },
          AbortSignal.timeout(Math.min(this.#timeoutMs, BACKGROUND_TIMEOUT_MS))
        ).catch((error) => this.#logger.debug("mcp cancel notification failed", { error }));
      }
      /** A deadline for work shared by several callers: aborts with typed reasons (timeout, close). */
      #sharedDeadline() {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(new McpTimeoutError(this.#timeoutMs, "the initialize handshake")), this.#timeoutMs);
        const closeSignal = this.#closeController.signal;
        const onClose = () => controller.abort(new McpAbortError(closeSignal.reason, "MCP client closed while connecting"));
        if (closeSignal.aborted) onClose();
        else closeSignal.addEventListener("abort", onClose, { once: true });
        return {
          signal: controller.signal,
          dispose: () => {
            clearTimeout(timer);
            closeSignal.removeEventListener("abort", onClose);
          }
        };
      }
      #deadline(timeoutMs, callerSignal, what) {
        const timeout = new AbortController();
        const timer = setTimeout(() => timeout.abort(new McpTimeoutError(timeoutMs, what)), timeoutMs);
        const closeSignal = this.#closeController.signal;
        const signal = AbortSignal.any(callerSignal ? [timeout.signal, closeSignal, callerSignal] : [timeout.signal, closeSignal]);
        return {
          signal,
          timedOut: () => timeout.signal.aborted && !(callerSignal?.aborted ?? false),
          convert: (error) => {
            if (!signal.aborted) return error;
            if (callerSignal?.aborted) return error instanceof McpAbortError ? error : new McpAbortError(callerSignal.reason);
            if (timeout.signal.aborted) return error instanceof McpTimeoutError ? error : new McpTimeoutError(timeoutMs, what);
            return error instanceof McpAbortError ? error : new McpAbortError(closeSignal.reason, "MCP client closed while the request was in flight");
          },
          dispose: () => clearTimeout(timer)
        };
      }
    };
  }
});

// node_modules/is-network-error/index.js
function isNetworkError(error) {
  const isValid2 = error && isError(error) && error.name === "TypeError" && typeof error.message === "string";
  if (!isValid2) {
    return false;
  }
  const { message, stack } = error;
  if (message === "Load failed" || message.startsWith("Load failed (") && message.endsWith(")")) {
    return stack === void 0 || "__sentry_captured__" in error;
  }
  if (message.startsWith("error sending request for url")) {
    return true;
  }
  if (message === "Failed to fetch" || message.startsWith("Failed to fetch (") && message.endsWith(")")) {
    return true;
  }
  return errorMessages.has(message);
}
var objectToString, isError, errorMessages;
var init_is_network_error = __esm({
  "node_modules/is-network-error/index.js"() {
    objectToString = Object.prototype.toString;
    isError = (value) => objectToString.call(value) === "[object Error]";
    errorMessages = /* @__PURE__ */ new Set([
      "network error",
      // Chrome
      "NetworkError when attempting to fetch resource.",
      // Firefox
      "The Internet connection appears to be offline.",
      // Safari 16
      "Network request failed",
      // `cross-fetch`
      "fetch failed",
      // Undici (Node.js)
      "terminated",
      // Undici (Node.js)
      " A network error occurred.",
      // Bun (WebKit)
      "Network connection lost"
      // Cloudflare Workers (fetch)
    ]);
  }
});

// node_modules/p-retry/index.js
function validateRetries(retries) {
  if (typeof retries === "number") {
    if (retries < 0) {
      throw new TypeError("Expected `retries` to be a non-negative number.");
    }
    if (Number.isNaN(retries)) {
      throw new TypeError("Expected `retries` to be a valid number or Infinity, got NaN.");
    }
  } else if (retries !== void 0) {
    throw new TypeError("Expected `retries` to be a number or Infinity.");
  }
}
function validateNumberOption(name, value, { min = 0, allowInfinity = false } = {}) {
  if (value === void 0) {
    return;
  }
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new TypeError(`Expected \`${name}\` to be a number${allowInfinity ? " or Infinity" : ""}.`);
  }
  if (!allowInfinity && !Number.isFinite(value)) {
    throw new TypeError(`Expected \`${name}\` to be a finite number.`);
  }
  if (value < min) {
    throw new TypeError(`Expected \`${name}\` to be \u2265 ${min}.`);
  }
}
function calculateDelay(retriesConsumed, options2) {
  const attempt2 = Math.max(1, retriesConsumed + 1);
  const random = options2.randomize ? Math.random() + 1 : 1;
  let timeout = Math.round(random * options2.minTimeout * options2.factor ** (attempt2 - 1));
  timeout = Math.min(timeout, options2.maxTimeout);
  return timeout;
}
function calculateRemainingTime(start, max) {
  if (!Number.isFinite(max)) {
    return max;
  }
  return max - (performance.now() - start);
}
async function onAttemptFailure({ error, attemptNumber, retriesConsumed, startTime, options: options2 }) {
  const normalizedError = error instanceof Error ? error : new TypeError(`Non-error was thrown: "${error}". You should only throw errors.`);
  if (normalizedError instanceof AbortError) {
    throw normalizedError.originalError;
  }
  const retriesLeft = Number.isFinite(options2.retries) ? Math.max(0, options2.retries - retriesConsumed) : options2.retries;
  const maxRetryTime = options2.maxRetryTime ?? Number.POSITIVE_INFINITY;
  const context = Object.freeze({
    error: normalizedError,
    attemptNumber,
    retriesLeft,
    retriesConsumed
  });
  await options2.onFailedAttempt(context);
  if (calculateRemainingTime(startTime, maxRetryTime) <= 0) {
    throw normalizedError;
  }
  const consumeRetry = await options2.shouldConsumeRetry(context);
  const remainingTime = calculateRemainingTime(startTime, maxRetryTime);
  if (remainingTime <= 0 || retriesLeft <= 0) {
    throw normalizedError;
  }
  if (normalizedError instanceof TypeError && !isNetworkError(normalizedError)) {
    if (consumeRetry) {
      throw normalizedError;
    }
    options2.signal?.throwIfAborted();
    return false;
  }
  if (!await options2.shouldRetry(context)) {
    throw normalizedError;
  }
  if (!consumeRetry) {
    options2.signal?.throwIfAborted();
    return false;
  }
  const delayTime = calculateDelay(retriesConsumed, options2);
  const finalDelay = Math.min(delayTime, remainingTime);
  options2.signal?.throwIfAborted();
  if (finalDelay > 0) {
    await new Promise((resolve6, reject) => {
      const onAbort = () => {
        clearTimeout(timeoutToken);
        options2.signal?.removeEventListener("abort", onAbort);
        reject(options2.signal.reason);
      };
      const timeoutToken = setTimeout(() => {
        options2.signal?.removeEventListener("abort", onAbort);
        resolve6();
      }, finalDelay);
      if (options2.unref) {
        timeoutToken.unref?.();
      }
      options2.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
  options2.signal?.throwIfAborted();
  return true;
}
async function pRetry(input, options2 = {}) {
  options2 = { ...options2 };
  validateRetries(options2.retries);
  if (Object.hasOwn(options2, "forever")) {
    throw new Error("The `forever` option is no longer supported. For many use-cases, you can set `retries: Infinity` instead.");
  }
  options2.retries ??= 10;
  options2.factor ??= 2;
  options2.minTimeout ??= 1e3;
  options2.maxTimeout ??= Number.POSITIVE_INFINITY;
  options2.maxRetryTime ??= Number.POSITIVE_INFINITY;
  options2.randomize ??= false;
  options2.onFailedAttempt ??= () => {
  };
  options2.shouldRetry ??= () => true;
  options2.shouldConsumeRetry ??= () => true;
  validateNumberOption("factor", options2.factor, { min: 0, allowInfinity: false });
  validateNumberOption("minTimeout", options2.minTimeout, { min: 0, allowInfinity: false });
  validateNumberOption("maxTimeout", options2.maxTimeout, { min: 0, allowInfinity: true });
  validateNumberOption("maxRetryTime", options2.maxRetryTime, { min: 0, allowInfinity: true });
  if (!(options2.factor > 0)) {
    options2.factor = 1;
  }
  options2.signal?.throwIfAborted();
  let attemptNumber = 0;
  let retriesConsumed = 0;
  const startTime = performance.now();
  while (Number.isFinite(options2.retries) ? retriesConsumed <= options2.retries : true) {
    attemptNumber++;
    try {
      options2.signal?.throwIfAborted();
      const result = await input(attemptNumber);
      options2.signal?.throwIfAborted();
      return result;
    } catch (error) {
      if (await onAttemptFailure({
        error,
        attemptNumber,
        retriesConsumed,
        startTime,
        options: options2
      })) {
        retriesConsumed++;
      }
    }
  }
  throw new Error("Retry attempts exhausted without throwing an error.");
}
var AbortError;
var init_p_retry = __esm({
  "node_modules/p-retry/index.js"() {
    init_is_network_error();
    AbortError = class extends Error {
      constructor(message) {
        super();
        if (message instanceof Error) {
          this.originalError = message;
          ({ message } = message);
        } else {
          this.originalError = new Error(message);
          this.originalError.stack = this.stack;
        }
        this.name = "AbortError";
        this.message = message;
      }
    };
  }
});

// src/lib/mcp/retry.ts
function backoffDelay2(attempt2, minDelayMs, maxDelayMs, random = Math.random) {
  return backoffDelay({ initialMs: minDelayMs, maxMs: maxDelayMs, low: 1, high: 2 }, attempt2, random);
}
async function withRetry(fn, options2) {
  const minDelayMs = options2.minDelayMs ?? 250;
  const maxDelayMs = options2.maxDelayMs ?? 8e3;
  const signal = options2.signal;
  const start = performance.now();
  const deadline = start + options2.deadlineMs;
  if (signal?.aborted) throw new McpAbortError(signal.reason);
  try {
    return await pRetry(
      async (attempt2) => {
        try {
          return await fn(attempt2);
        } catch (error) {
          if (error instanceof McpError && error.retryable && !signal?.aborted) throw error;
          throw new AbortError(error instanceof Error ? error : new Error(String(error)));
        }
      },
      {
        retries: options2.retries,
        minTimeout: 0,
        // our delay is slept in shouldRetry
        maxTimeout: 0,
        factor: 1,
        randomize: false,
        maxRetryTime: Math.max(0, options2.deadlineMs),
        signal,
        shouldRetry: async ({ error, attemptNumber }) => {
          const typed = error;
          const backoff = backoffDelay2(attemptNumber, minDelayMs, maxDelayMs);
          const delay = Math.max(backoff, typed.retryAfterMs ?? 0);
          if (performance.now() + delay >= deadline) return false;
          options2.onRetry?.(typed, attemptNumber, delay);
          await sleep(delay, signal).catch(() => {
            throw new McpAbortError(signal?.reason);
          });
          return performance.now() < deadline;
        }
      }
    );
  } catch (error) {
    if (signal?.aborted && !(error instanceof McpAbortError)) throw new McpAbortError(signal.reason);
    throw error;
  }
}
var init_retry = __esm({
  "src/lib/mcp/retry.ts"() {
    "use strict";
    init_p_retry();
    init_backoff();
    init_errors2();
  }
});

// src/lib/graphiti/graphiti.ts
var graphiti_exports = {};
__export(graphiti_exports, {
  GraphitiClient: () => GraphitiClient,
  extractPayload: () => extractPayload
});
function declares(tool, parameter) {
  return tool.inputSchema.properties !== void 0 && Object.prototype.hasOwnProperty.call(tool.inputSchema.properties, parameter);
}
function textOf(result) {
  return result.content.map((c) => typeof c.text === "string" ? c.text : "").join("\n").trim();
}
function parseJsonOr(text2) {
  try {
    return JSON.parse(text2);
  } catch {
    return { message: text2 };
  }
}
function extractPayload(result) {
  const structured = result.structuredContent;
  if (isRecord(structured)) {
    const keys = Object.keys(structured);
    if (keys.length === 1 && keys[0] === "result") return structured.result;
    return structured;
  }
  const texts = result.content.filter((c) => c.type === "text" && typeof c.text === "string").map((c) => c.text);
  if (texts.length === 0) return {};
  if (texts.length === 1) return parseJsonOr(texts[0]);
  return texts.map(parseJsonOr);
}
function parseEpisodes(payload) {
  const list = Array.isArray(payload) ? payload : isRecord(payload) && Array.isArray(payload.episodes) ? payload.episodes : [];
  return list.map((e) => {
    const parsed = episodeSchema.parse(e);
    return {
      uuid: parsed.uuid,
      name: parsed.name,
      content: parsed.content,
      created_at: parsed.created_at,
      source: parsed.source,
      source_description: parsed.source_description,
      group_id: parsed.group_id
    };
  });
}
var TOOL_NAMES, nullableString, episodeSchema, factSchema, nodeSchema, messageSchema, statusSchema, GraphitiClient;
var init_graphiti = __esm({
  "src/lib/graphiti/graphiti.ts"() {
    "use strict";
    init_v3();
    init_escape();
    init_log();
    init_client();
    init_errors2();
    init_retry();
    init_json();
    TOOL_NAMES = {
      addMemory: ["add_memory", "add_episode"],
      searchFacts: ["search_memory_facts", "search_facts"],
      searchNodes: ["search_nodes", "search_memory_nodes"],
      getEpisodes: ["get_episodes"],
      deleteEpisode: ["delete_episode"],
      getStatus: ["get_status"]
    };
    nullableString = external_exports.string().nullable().optional();
    episodeSchema = external_exports.object({
      uuid: external_exports.string(),
      name: external_exports.string().default(""),
      content: external_exports.string().default(""),
      created_at: external_exports.string().nullable().default(null),
      source: external_exports.string().default("text"),
      source_description: external_exports.string().default(""),
      group_id: external_exports.string().default("")
    }).passthrough();
    factSchema = external_exports.object({
      uuid: external_exports.string(),
      name: external_exports.string().default(""),
      fact: external_exports.string(),
      group_id: external_exports.string().optional(),
      created_at: nullableString,
      valid_at: nullableString,
      invalid_at: nullableString,
      expired_at: nullableString,
      episodes: external_exports.array(external_exports.string()).optional(),
      source_node_uuid: external_exports.string().optional(),
      target_node_uuid: external_exports.string().optional()
    }).passthrough();
    nodeSchema = external_exports.object({
      uuid: external_exports.string(),
      name: external_exports.string(),
      summary: nullableString,
      labels: external_exports.array(external_exports.string()).optional(),
      created_at: nullableString,
      group_id: external_exports.string().optional()
    }).passthrough();
    messageSchema = external_exports.object({ message: external_exports.string() }).passthrough();
    statusSchema = external_exports.object({ status: external_exports.enum(["ok", "error"]), message: external_exports.string() }).passthrough();
    GraphitiClient = class {
      config;
      logger;
      mcp;
      tools;
      toolsSession;
      constructor(config, options2 = {}) {
        this.config = config;
        this.logger = options2.logger ?? nullLogger;
        this.mcp = options2.client ?? new McpClient({
          url: config.mcpUrl,
          ...config.sseUrl === void 0 ? {} : { sseUrl: config.sseUrl },
          transport: config.transport,
          headers: config.headers,
          ...config.authToken === void 0 ? {} : { authToken: config.authToken },
          timeoutMs: config.timeoutMs,
          logger: this.logger.child({ component: "mcp" })
        });
      }
      /** Group ids made safe for the database (escape.ts); every call that names groups goes through here. */
      safeGroups(groupIds) {
        return groupIds.map((g) => normalizeGroupId(this.config.db, g));
      }
      /** The underlying MCP client (for diagnostics such as the negotiated protocol). */
      get client() {
        return this.mcp;
      }
      async getStatus(signal) {
        return this.retrying("get_status", signal, async () => {
          const tool = await this.resolveTool("getStatus", signal);
          if (tool === void 0) {
            return { status: "ok", message: "Server answered tools/list (this Graphiti release has no get_status tool)" };
          }
          const payload = await this.call(tool.name, {}, signal);
          return statusSchema.parse(payload);
        });
      }
      async addMemory(input, signal) {
        const [groupId] = this.safeGroups([input.groupId]);
        return this.retrying("add_memory", signal, async () => {
          const tool = await this.requireTool("addMemory", signal);
          const args = {
            name: input.name,
            episode_body: input.episodeBody,
            group_id: groupId,
            source: input.source ?? "text",
            source_description: input.sourceDescription
          };
          if (input.referenceTime !== void 0 && declares(tool, "reference_time")) args.reference_time = input.referenceTime;
          const payload = await this.call(tool.name, args, signal);
          const { message } = messageSchema.parse(payload);
          if (!/queued|added successfully/i.test(message)) {
            throw new McpProtocolError(`Unexpected add_memory reply: ${message.slice(0, 200)}`);
          }
          return { queued: true, message };
        });
      }
      async getEpisodes(groupIds, maxEpisodes, signal) {
        const groups = this.safeGroups(groupIds);
        return this.retrying("get_episodes", signal, async () => {
          const tool = await this.requireTool("getEpisodes", signal);
          const results = [];
          if (declares(tool, "group_ids") || !declares(tool, "group_id")) {
            const payload = await this.call(tool.name, { group_ids: groups, max_episodes: maxEpisodes }, signal);
            results.push(...parseEpisodes(payload));
          } else {
            for (const group of groups) {
              const payload = await this.call(tool.name, { group_id: group, last_n: maxEpisodes }, signal);
              results.push(...parseEpisodes(payload));
            }
          }
          return results;
        });
      }
      /**
       * Deletes one episode of `groupId`. Servers 1.1+ keep each group in its own FalkorDB graph and
       * look the uuid up in their default group's graph unless the call names the group: there, a
       * delete without `group_id` answers "not found" and the episode stays. So the group is always
       * named where the tool declares it.
       */
      async deleteEpisode(uuid, groupId, signal) {
        const [group] = this.safeGroups([groupId]);
        return this.retrying("delete_episode", signal, async () => {
          const tool = await this.requireTool("deleteEpisode", signal);
          try {
            await this.call(tool.name, declares(tool, "group_id") ? { uuid, group_id: group } : { uuid }, signal);
            return { deleted: true, notFound: false };
          } catch (error) {
            if (error instanceof McpToolError && /not found/i.test(error.detail)) return { deleted: false, notFound: true };
            throw error;
          }
        });
      }
      async searchFacts(query, groupIds, maxFacts = 20, signal) {
        const groups = this.safeGroups(groupIds);
        const text2 = escapeSearchQuery(this.config.db, query, groups.length);
        if (text2 === "") return [];
        return this.retrying("search_memory_facts", signal, async () => {
          const tool = await this.requireTool("searchFacts", signal);
          const payload = await this.call(tool.name, { query: text2, group_ids: groups, max_facts: maxFacts }, signal);
          return external_exports.object({ facts: external_exports.array(factSchema).default([]) }).passthrough().parse(payload).facts;
        });
      }
      async searchNodes(query, groupIds, maxNodes = 10, signal) {
        const groups = this.safeGroups(groupIds);
        const text2 = escapeSearchQuery(this.config.db, query, groups.length);
        if (text2 === "") return [];
        return this.retrying("search_nodes", signal, async () => {
          const tool = await this.requireTool("searchNodes", signal);
          const payload = await this.call(tool.name, { query: text2, group_ids: groups, max_nodes: maxNodes }, signal);
          return external_exports.object({ nodes: external_exports.array(nodeSchema).default([]) }).passthrough().parse(payload).nodes;
        });
      }
      async close() {
        await this.mcp.close();
      }
      retrying(what, signal, fn) {
        return withRetry(() => fn(), {
          retries: this.config.retries,
          deadlineMs: this.config.retryDeadlineMs,
          ...signal === void 0 ? {} : { signal },
          onRetry: (error, attempt2, delayMs) => this.logger.warn("retrying", { call: what, attempt: attempt2, delayMs, error: error.message })
        });
      }
      /** Tool discovery, once per MCP session (a new session may be a different server). */
      async resolveTool(op, signal) {
        await this.mcp.connect(signal);
        if (this.tools === void 0 || this.toolsSession !== this.mcp.sessionId) {
          const list = await this.mcp.listTools(signal === void 0 ? {} : { signal });
          this.tools = new Map(list.map((t) => [t.name, t]));
          this.toolsSession = this.mcp.sessionId;
        }
        for (const name of TOOL_NAMES[op]) {
          const tool = this.tools.get(name);
          if (tool !== void 0) return tool;
        }
        return void 0;
      }
      async requireTool(op, signal) {
        const tool = await this.resolveTool(op, signal);
        if (tool === void 0) {
          throw new McpProtocolError(`The server offers none of the tools ${TOOL_NAMES[op].join(", ")}; is this a Graphiti MCP server?`);
        }
        return tool;
      }
      /** Calls a tool and returns its payload; `isError` and `{error}` payloads become McpToolError. */
      async call(tool, args, signal) {
        const result = await this.mcp.callTool(tool, args, signal === void 0 ? {} : { signal });
        const payload = extractPayload(result);
        if (result.isError === true) throw new McpToolError(tool, textOf(result) || JSON.stringify(payload).slice(0, 500));
        if (isRecord(payload) && typeof payload.error === "string") throw new McpToolError(tool, payload.error);
        return payload;
      }
    };
  }
});

// src/lib/memory/footer.ts
function isCaptureFooter(line) {
  return FOOTER.test(line);
}
function stripCaptureFooters(text2) {
  if (!/captured/i.test(text2)) return text2;
  const lines = text2.split("\n");
  const keep2 = [];
  let removed = false;
  for (const line of lines) {
    if (!isCaptureFooter(line)) {
      keep2.push(line);
      continue;
    }
    removed = true;
    let i = keep2.length;
    while (i > 0 && (keep2[i - 1] ?? "").trim() === "") i -= 1;
    if (i > 0 && THEMATIC_BREAK.test(keep2[i - 1] ?? "")) keep2.length = i - 1;
  }
  if (!removed) return text2;
  let out = keep2.join("\n");
  if (text2.endsWith("\n")) out = `${out.replace(/\s+$/, "")}
`;
  return out;
}
var FOOTER, THEMATIC_BREAK;
var init_footer = __esm({
  "src/lib/memory/footer.ts"() {
    "use strict";
    FOOTER = /^[ \t]*(\*{1,2}|_{1,2})(?:auto[- ]?captured|captured)[ \t]+(?:by|via|from|with)\b[^\n]*?\1[ \t]*$/i;
    THEMATIC_BREAK = /^[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$/;
  }
});

// src/lib/memory/text.ts
function decodeMemoryText(raw) {
  let text2;
  try {
    text2 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    return void 0;
  }
  if (text2.charCodeAt(0) === 65279) text2 = text2.slice(1);
  return text2.replace(/\r\n?/g, "\n");
}
function firstInvalidUtf8(bytes) {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let need;
    let min;
    if (b < 128) {
      i += 1;
      continue;
    } else if (b >= 194 && b <= 223) {
      need = 1;
      min = 128;
    } else if (b >= 224 && b <= 239) {
      need = 2;
      min = 2048;
    } else if (b >= 240 && b <= 244) {
      need = 3;
      min = 65536;
    } else return i;
    let cp = b & 63 >> need;
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === void 0 || (c & 192) !== 128) return i;
      cp = cp << 6 | c & 63;
    }
    if (cp < min || cp > 1114111 || cp >= 55296 && cp <= 57343) return i;
    i += need + 1;
  }
  return -1;
}
function decode(raw) {
  if (raw[0] === 255 && raw[1] === 254 || raw[0] === 254 && raw[1] === 255) {
    return { ok: false, reason: "not-utf8", message: "the file is UTF-16 text; convert it to UTF-8" };
  }
  const nul = raw.indexOf(0);
  if (nul !== -1) {
    return { ok: false, reason: "binary", message: `the file contains a NUL byte at offset ${nul}: it looks binary, not markdown` };
  }
  const text2 = decodeMemoryText(raw);
  if (text2 === void 0) {
    const at = firstInvalidUtf8(raw);
    return { ok: false, reason: "not-utf8", message: `the file is not valid UTF-8 (first bad byte at offset ${at < 0 ? "?" : at}); convert it to UTF-8` };
  }
  return { ok: true, text: text2 };
}
var init_text = __esm({
  "src/lib/memory/text.ts"() {
    "use strict";
  }
});

// src/lib/memory/hash.ts
import { createHash as createHash3 } from "node:crypto";
function sha256Hex(data) {
  const h = createHash3("sha256");
  if (typeof data === "string") h.update(data, "utf8");
  else h.update(data);
  return h.digest("hex");
}
function normalizeContent(raw) {
  const text2 = decodeMemoryText(raw);
  return text2 === void 0 ? void 0 : stripCaptureFooters(text2);
}
function contentHashOf(raw) {
  const text2 = normalizeContent(raw);
  return text2 === void 0 ? sha256Hex(raw) : sha256Hex(text2);
}
function fileIdOf(source2, relPath) {
  return sha256Hex(`${source2}\0${relPath}`).slice(0, 16);
}
var init_hash = __esm({
  "src/lib/memory/hash.ts"() {
    "use strict";
    init_footer();
    init_text();
  }
});

// src/lib/memory/sources.ts
import { join as join10, resolve as resolve5 } from "node:path";
function resolveSources(config) {
  const roots = [];
  if (config.syncPai) roots.push({ name: "pai", kind: "pai", root: resolve5(join10(config.paiDir, "MEMORY")) });
  if (config.syncAutoMemory) roots.push({ name: "auto-memory", kind: "auto-memory", root: resolve5(join10(config.claudeConfigDir, "projects")) });
  for (const extra of config.extraSources) roots.push({ name: extra.name, kind: "extra", root: resolve5(extra.path) });
  return roots.map((s) => {
    const shared = config.sharedSources[s.name];
    return { ...s, origin: shared ?? config.origin, shared: shared !== void 0 };
  });
}
function fileIdFor(source2, relPath) {
  return source2.shared ? fileIdOf(`shared:${source2.origin}`, relPath) : fileIdOf(source2.name, relPath);
}
function filterSources(sources, name) {
  if (name === void 0) return sources;
  const match = sources.filter((s) => s.name === name);
  if (match.length === 0) throw new UnknownSourceError(name, sources.map((s) => s.name));
  return match;
}
var UnknownSourceError;
var init_sources = __esm({
  "src/lib/memory/sources.ts"() {
    "use strict";
    init_hash();
    UnknownSourceError = class extends Error {
      constructor(requested, known) {
        super(
          known.length === 0 ? `Unknown source "${requested}": no sources are enabled (check MADEINOZ_KNOWLEDGE_SYNC_PAI, MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY, MADEINOZ_KNOWLEDGE_SYNC_PATHS)` : `Unknown source "${requested}": known sources are ${known.map((k) => `"${k}"`).join(", ")}`
        );
        this.requested = requested;
        this.known = known;
        this.name = "UnknownSourceError";
      }
      requested;
      known;
    };
  }
});

// node_modules/picomatch/lib/constants.js
var require_constants = __commonJS({
  "node_modules/picomatch/lib/constants.js"(exports2, module2) {
    "use strict";
    var WIN_SLASH = "\\\\/";
    var WIN_NO_SLASH = `[^${WIN_SLASH}]`;
    var DEFAULT_MAX_EXTGLOB_RECURSION = 0;
    var DOT_LITERAL = "\\.";
    var PLUS_LITERAL = "\\+";
    var QMARK_LITERAL = "\\?";
    var SLASH_LITERAL = "\\/";
    var ONE_CHAR = "(?=.)";
    var QMARK = "[^/]";
    var END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
    var START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
    var DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
    var NO_DOT = `(?!${DOT_LITERAL})`;
    var NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
    var NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
    var NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
    var QMARK_NO_DOT = `[^.${SLASH_LITERAL}]`;
    var STAR = `${QMARK}*?`;
    var SEP = "/";
    var POSIX_CHARS = {
      DOT_LITERAL,
      PLUS_LITERAL,
      QMARK_LITERAL,
      SLASH_LITERAL,
      ONE_CHAR,
      QMARK,
      END_ANCHOR,
      DOTS_SLASH,
      NO_DOT,
      NO_DOTS,
      NO_DOT_SLASH,
      NO_DOTS_SLASH,
      QMARK_NO_DOT,
      STAR,
      START_ANCHOR,
      SEP
    };
    var WINDOWS_CHARS = {
      ...POSIX_CHARS,
      SLASH_LITERAL: `[${WIN_SLASH}]`,
      QMARK: WIN_NO_SLASH,
      STAR: `${WIN_NO_SLASH}*?`,
      DOTS_SLASH: `${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$)`,
      NO_DOT: `(?!${DOT_LITERAL})`,
      NO_DOTS: `(?!(?:^|[${WIN_SLASH}])${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      NO_DOT_SLASH: `(?!${DOT_LITERAL}{0,1}(?:[${WIN_SLASH}]|$))`,
      NO_DOTS_SLASH: `(?!${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      QMARK_NO_DOT: `[^.${WIN_SLASH}]`,
      START_ANCHOR: `(?:^|[${WIN_SLASH}])`,
      END_ANCHOR: `(?:[${WIN_SLASH}]|$)`,
      SEP: "\\"
    };
    var POSIX_REGEX_SOURCE = {
      __proto__: null,
      alnum: "a-zA-Z0-9",
      alpha: "a-zA-Z",
      ascii: "\\x00-\\x7F",
      blank: " \\t",
      cntrl: "\\x00-\\x1F\\x7F",
      digit: "0-9",
      graph: "\\x21-\\x7E",
      lower: "a-z",
      print: "\\x20-\\x7E ",
      punct: "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
      space: " \\t\\r\\n\\v\\f",
      upper: "A-Z",
      word: "A-Za-z0-9_",
      xdigit: "A-Fa-f0-9"
    };
    module2.exports = {
      DEFAULT_MAX_EXTGLOB_RECURSION,
      MAX_LENGTH: 1024 * 64,
      POSIX_REGEX_SOURCE,
      // regular expressions
      REGEX_BACKSLASH: /\\(?![*+?^${}(|)[\]])/g,
      REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/,
      REGEX_SPECIAL_CHARS: /[-*+?.^${}(|)[\]]/,
      REGEX_SPECIAL_CHARS_BACKREF: /(\\?)((\W)(\3*))/g,
      REGEX_SPECIAL_CHARS_GLOBAL: /([-*+?.^${}(|)[\]])/g,
      REGEX_REMOVE_BACKSLASH: /(?:\[.*?[^\\]\]|\\(?=.))/g,
      // Replace globs with equivalent patterns to reduce parsing time.
      REPLACEMENTS: {
        __proto__: null,
        "***": "*",
        "**/**": "**",
        "**/**/**": "**"
      },
      // Digits
      CHAR_0: 48,
      /* 0 */
      CHAR_9: 57,
      /* 9 */
      // Alphabet chars.
      CHAR_UPPERCASE_A: 65,
      /* A */
      CHAR_LOWERCASE_A: 97,
      /* a */
      CHAR_UPPERCASE_Z: 90,
      /* Z */
      CHAR_LOWERCASE_Z: 122,
      /* z */
      CHAR_LEFT_PARENTHESES: 40,
      /* ( */
      CHAR_RIGHT_PARENTHESES: 41,
      /* ) */
      CHAR_ASTERISK: 42,
      /* * */
      // Non-alphabetic chars.
      CHAR_AMPERSAND: 38,
      /* & */
      CHAR_AT: 64,
      /* @ */
      CHAR_BACKWARD_SLASH: 92,
      /* \ */
      CHAR_CARRIAGE_RETURN: 13,
      /* \r */
      CHAR_CIRCUMFLEX_ACCENT: 94,
      /* ^ */
      CHAR_COLON: 58,
      /* : */
      CHAR_COMMA: 44,
      /* , */
      CHAR_DOT: 46,
      /* . */
      CHAR_DOUBLE_QUOTE: 34,
      /* " */
      CHAR_EQUAL: 61,
      /* = */
      CHAR_EXCLAMATION_MARK: 33,
      /* ! */
      CHAR_FORM_FEED: 12,
      /* \f */
      CHAR_FORWARD_SLASH: 47,
      /* / */
      CHAR_GRAVE_ACCENT: 96,
      /* ` */
      CHAR_HASH: 35,
      /* # */
      CHAR_HYPHEN_MINUS: 45,
      /* - */
      CHAR_LEFT_ANGLE_BRACKET: 60,
      /* < */
      CHAR_LEFT_CURLY_BRACE: 123,
      /* { */
      CHAR_LEFT_SQUARE_BRACKET: 91,
      /* [ */
      CHAR_LINE_FEED: 10,
      /* \n */
      CHAR_NO_BREAK_SPACE: 160,
      /* \u00A0 */
      CHAR_PERCENT: 37,
      /* % */
      CHAR_PLUS: 43,
      /* + */
      CHAR_QUESTION_MARK: 63,
      /* ? */
      CHAR_RIGHT_ANGLE_BRACKET: 62,
      /* > */
      CHAR_RIGHT_CURLY_BRACE: 125,
      /* } */
      CHAR_RIGHT_SQUARE_BRACKET: 93,
      /* ] */
      CHAR_SEMICOLON: 59,
      /* ; */
      CHAR_SINGLE_QUOTE: 39,
      /* ' */
      CHAR_SPACE: 32,
      /*   */
      CHAR_TAB: 9,
      /* \t */
      CHAR_UNDERSCORE: 95,
      /* _ */
      CHAR_VERTICAL_LINE: 124,
      /* | */
      CHAR_ZERO_WIDTH_NOBREAK_SPACE: 65279,
      /* \uFEFF */
      /**
       * Create EXTGLOB_CHARS
       */
      extglobChars(chars) {
        return {
          "!": { type: "negate", open: "(?:(?!(?:", close: `))${chars.STAR})` },
          "?": { type: "qmark", open: "(?:", close: ")?" },
          "+": { type: "plus", open: "(?:", close: ")+" },
          "*": { type: "star", open: "(?:", close: ")*" },
          "@": { type: "at", open: "(?:", close: ")" }
        };
      },
      /**
       * Create GLOB_CHARS
       */
      globChars(win32) {
        return win32 === true ? WINDOWS_CHARS : POSIX_CHARS;
      }
    };
  }
});

// node_modules/picomatch/lib/utils.js
var require_utils = __commonJS({
  "node_modules/picomatch/lib/utils.js"(exports2) {
    "use strict";
    var {
      REGEX_BACKSLASH,
      REGEX_REMOVE_BACKSLASH,
      REGEX_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_GLOBAL
    } = require_constants();
    exports2.isObject = (val) => val !== null && typeof val === "object" && !Array.isArray(val);
    exports2.hasRegexChars = (str2) => REGEX_SPECIAL_CHARS.test(str2);
    exports2.isRegexChar = (str2) => str2.length === 1 && exports2.hasRegexChars(str2);
    exports2.escapeRegex = (str2) => str2.replace(REGEX_SPECIAL_CHARS_GLOBAL, "\\$1");
    exports2.toPosixSlashes = (str2) => str2.replace(REGEX_BACKSLASH, "/");
    exports2.isWindows = () => {
      if (typeof navigator !== "undefined" && navigator.platform) {
        const platform = navigator.platform.toLowerCase();
        return platform === "win32" || platform === "windows";
      }
      if (typeof process !== "undefined" && process.platform) {
        return process.platform === "win32";
      }
      return false;
    };
    exports2.removeBackslashes = (str2) => {
      return str2.replace(REGEX_REMOVE_BACKSLASH, (match) => {
        return match === "\\" ? "" : match;
      });
    };
    exports2.escapeLast = (input, char, lastIdx) => {
      const idx = input.lastIndexOf(char, lastIdx);
      if (idx === -1) return input;
      if (input[idx - 1] === "\\") return exports2.escapeLast(input, char, idx - 1);
      return `${input.slice(0, idx)}\\${input.slice(idx)}`;
    };
    exports2.removePrefix = (input, state = {}) => {
      let output = input;
      if (output.startsWith("./")) {
        output = output.slice(2);
        state.prefix = "./";
      }
      return output;
    };
    exports2.wrapOutput = (input, state = {}, options2 = {}) => {
      const prepend = options2.contains ? "" : "^";
      const append = options2.contains ? "" : "$";
      let output = `${prepend}(?:${input})${append}`;
      if (state.negated === true) {
        output = `(?:^(?!${output}).*$)`;
      }
      return output;
    };
    exports2.basename = (path, { windows } = {}) => {
      const segs = path.split(windows ? /[\\/]/ : "/");
      const last = segs[segs.length - 1];
      if (last === "") {
        return segs[segs.length - 2];
      }
      return last;
    };
  }
});

// node_modules/picomatch/lib/scan.js
var require_scan = __commonJS({
  "node_modules/picomatch/lib/scan.js"(exports2, module2) {
    "use strict";
    var utils = require_utils();
    var {
      CHAR_ASTERISK,
      /* * */
      CHAR_AT,
      /* @ */
      CHAR_BACKWARD_SLASH,
      /* \ */
      CHAR_COMMA,
      /* , */
      CHAR_DOT,
      /* . */
      CHAR_EXCLAMATION_MARK,
      /* ! */
      CHAR_FORWARD_SLASH,
      /* / */
      CHAR_LEFT_CURLY_BRACE,
      /* { */
      CHAR_LEFT_PARENTHESES,
      /* ( */
      CHAR_LEFT_SQUARE_BRACKET,
      /* [ */
      CHAR_PLUS,
      /* + */
      CHAR_QUESTION_MARK,
      /* ? */
      CHAR_RIGHT_CURLY_BRACE,
      /* } */
      CHAR_RIGHT_PARENTHESES,
      /* ) */
      CHAR_RIGHT_SQUARE_BRACKET
      /* ] */
    } = require_constants();
    var isPathSeparator = (code) => {
      return code === CHAR_FORWARD_SLASH || code === CHAR_BACKWARD_SLASH;
    };
    var depth = (token) => {
      if (token.isPrefix !== true) {
        token.depth = token.isGlobstar ? Infinity : 1;
      }
    };
    var scan = (input, options2) => {
      const opts = options2 || {};
      const length = input.length - 1;
      const scanToEnd = opts.parts === true || opts.tokens === true || opts.scanToEnd === true;
      const slashes = [];
      const tokens = [];
      const parts = [];
      let str2 = input;
      let index = -1;
      let start = 0;
      let lastIndex = 0;
      let isBrace = false;
      let isBracket = false;
      let isGlob = false;
      let isExtglob = false;
      let isGlobstar = false;
      let braceEscaped = false;
      let backslashes = false;
      let negated = false;
      let negatedExtglob = false;
      let finished = false;
      let braces = 0;
      let prev;
      let code;
      let token = { value: "", depth: 0, isGlob: false };
      const eos = () => index >= length;
      const peek = () => str2.charCodeAt(index + 1);
      const advance = () => {
        prev = code;
        return str2.charCodeAt(++index);
      };
      while (index < length) {
        code = advance();
        let next;
        if (code === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          code = advance();
          if (code === CHAR_LEFT_CURLY_BRACE) {
            braceEscaped = true;
          }
          continue;
        }
        if (braceEscaped === true || code === CHAR_LEFT_CURLY_BRACE) {
          braces++;
          while (eos() !== true && (code = advance())) {
            if (code === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (code === CHAR_LEFT_CURLY_BRACE) {
              braces++;
              continue;
            }
            if (braceEscaped !== true && code === CHAR_DOT && (code = advance()) === CHAR_DOT) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (braceEscaped !== true && code === CHAR_COMMA) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (code === CHAR_RIGHT_CURLY_BRACE) {
              braces--;
              if (braces === 0) {
                braceEscaped = false;
                isBrace = token.isBrace = true;
                finished = true;
                break;
              }
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_FORWARD_SLASH) {
          slashes.push(index);
          tokens.push(token);
          token = { value: "", depth: 0, isGlob: false };
          if (finished === true) continue;
          if (prev === CHAR_DOT && index === start + 1) {
            start += 2;
            continue;
          }
          lastIndex = index + 1;
          continue;
        }
        if (opts.noext !== true) {
          const isExtglobChar = code === CHAR_PLUS || code === CHAR_AT || code === CHAR_ASTERISK || code === CHAR_QUESTION_MARK || code === CHAR_EXCLAMATION_MARK;
          if (isExtglobChar === true && peek() === CHAR_LEFT_PARENTHESES) {
            isGlob = token.isGlob = true;
            isExtglob = token.isExtglob = true;
            finished = true;
            if (code === CHAR_EXCLAMATION_MARK && index === start) {
              negatedExtglob = true;
            }
            if (scanToEnd === true) {
              let parens = 0;
              while (eos() !== true && (code = advance())) {
                if (code === CHAR_BACKWARD_SLASH) {
                  backslashes = token.backslashes = true;
                  advance();
                  continue;
                }
                if (code === CHAR_LEFT_PARENTHESES) {
                  parens++;
                  continue;
                }
                if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                  finished = true;
                  break;
                }
              }
              continue;
            }
            break;
          }
        }
        if (code === CHAR_ASTERISK) {
          if (prev === CHAR_ASTERISK) isGlobstar = token.isGlobstar = true;
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_QUESTION_MARK) {
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_LEFT_SQUARE_BRACKET) {
          while (eos() !== true && (next = advance())) {
            if (next === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (next === CHAR_RIGHT_SQUARE_BRACKET) {
              isBracket = token.isBracket = true;
              isGlob = token.isGlob = true;
              finished = true;
              break;
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (opts.nonegate !== true && code === CHAR_EXCLAMATION_MARK && index === start) {
          negated = token.negated = true;
          start++;
          continue;
        }
        if (opts.noparen !== true && code === CHAR_LEFT_PARENTHESES) {
          isGlob = token.isGlob = true;
          if (scanToEnd === true) {
            let parens = 1;
            while (eos() !== true && (code = advance())) {
              if (code === CHAR_BACKWARD_SLASH) {
                backslashes = token.backslashes = true;
                advance();
                continue;
              }
              if (code === CHAR_LEFT_PARENTHESES) {
                parens++;
                continue;
              }
              if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                finished = true;
                break;
              }
            }
            continue;
          }
          break;
        }
        if (isGlob === true) {
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
      }
      if (opts.noext === true) {
        isExtglob = false;
        isGlob = false;
      }
      let base = str2;
      let prefix = "";
      let glob = "";
      if (start > 0) {
        prefix = str2.slice(0, start);
        str2 = str2.slice(start);
        lastIndex -= start;
      }
      if (base && isGlob === true && lastIndex > 0) {
        base = str2.slice(0, lastIndex);
        glob = str2.slice(lastIndex);
      } else if (isGlob === true) {
        base = "";
        glob = str2;
      } else {
        base = str2;
      }
      if (base && base !== "" && base !== "/" && base !== str2) {
        if (isPathSeparator(base.charCodeAt(base.length - 1))) {
          base = base.slice(0, -1);
        }
      }
      if (opts.unescape === true) {
        if (glob) glob = utils.removeBackslashes(glob);
        if (base && backslashes === true) {
          base = utils.removeBackslashes(base);
        }
      }
      const state = {
        prefix,
        input,
        start,
        base,
        glob,
        isBrace,
        isBracket,
        isGlob,
        isExtglob,
        isGlobstar,
        negated,
        negatedExtglob
      };
      if (opts.tokens === true) {
        state.maxDepth = 0;
        if (!isPathSeparator(code)) {
          tokens.push(token);
        }
        state.tokens = tokens;
      }
      if (opts.parts === true || opts.tokens === true) {
        let prevIndex;
        for (let idx = 0; idx < slashes.length; idx++) {
          const n2 = prevIndex !== void 0 ? prevIndex + 1 : start;
          const i = slashes[idx];
          const value2 = input.slice(n2, i);
          if (opts.tokens) {
            if (idx === 0 && start !== 0) {
              tokens[idx].isPrefix = true;
              tokens[idx].value = prefix;
            } else {
              tokens[idx].value = value2;
            }
            depth(tokens[idx]);
            state.maxDepth += tokens[idx].depth;
          }
          if (i >= start) {
            parts.push(value2);
            prevIndex = i;
          }
        }
        const n = prevIndex !== void 0 ? prevIndex + 1 : start;
        const value = input.slice(n);
        parts.push(value);
        if (opts.tokens && prevIndex && prevIndex + 1 < input.length) {
          tokens[tokens.length - 1].value = value;
          depth(tokens[tokens.length - 1]);
          state.maxDepth += tokens[tokens.length - 1].depth;
        }
        state.slashes = slashes;
        state.parts = parts;
      }
      return state;
    };
    module2.exports = scan;
  }
});

// node_modules/picomatch/lib/parse.js
var require_parse = __commonJS({
  "node_modules/picomatch/lib/parse.js"(exports2, module2) {
    "use strict";
    var constants = require_constants();
    var utils = require_utils();
    var {
      MAX_LENGTH,
      POSIX_REGEX_SOURCE,
      REGEX_NON_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_BACKREF,
      REPLACEMENTS
    } = constants;
    var expandRange = (args, options2) => {
      if (typeof options2.expandRange === "function") {
        return options2.expandRange(...args, options2);
      }
      args.sort();
      const value = `[${args.join("-")}]`;
      try {
        new RegExp(value);
      } catch (ex) {
        return args.map((v) => utils.escapeRegex(v)).join("..");
      }
      return value;
    };
    var syntaxError = (type, char) => {
      return `Missing ${type}: "${char}" - use "\\\\${char}" to match literal characters`;
    };
    var splitTopLevel = (input) => {
      const parts = [];
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let value = "";
      let escaped = false;
      for (const ch of input) {
        if (escaped === true) {
          value += ch;
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          value += ch;
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          value += ch;
          continue;
        }
        if (quote === 0) {
          if (ch === "[") {
            bracket++;
          } else if (ch === "]" && bracket > 0) {
            bracket--;
          } else if (bracket === 0) {
            if (ch === "(") {
              paren++;
            } else if (ch === ")" && paren > 0) {
              paren--;
            } else if (ch === "|" && paren === 0) {
              parts.push(value);
              value = "";
              continue;
            }
          }
        }
        value += ch;
      }
      parts.push(value);
      return parts;
    };
    var isPlainBranch = (branch) => {
      let escaped = false;
      for (const ch of branch) {
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (/[?*+@!()[\]{}]/.test(ch)) {
          return false;
        }
      }
      return true;
    };
    var normalizeSimpleBranch = (branch) => {
      let value = branch.trim();
      let changed = true;
      while (changed === true) {
        changed = false;
        if (/^@\([^\\()[\]{}|]+\)$/.test(value)) {
          value = value.slice(2, -1);
          changed = true;
        }
      }
      if (!isPlainBranch(value)) {
        return;
      }
      return value.replace(/\\(.)/g, "$1");
    };
    var hasRepeatedCharPrefixOverlap = (branches) => {
      const values = branches.map(normalizeSimpleBranch).filter(Boolean);
      for (let i = 0; i < values.length; i++) {
        for (let j = i + 1; j < values.length; j++) {
          const a = values[i];
          const b = values[j];
          const char = a[0];
          if (!char || a !== char.repeat(a.length) || b !== char.repeat(b.length)) {
            continue;
          }
          if (a === b || a.startsWith(b) || b.startsWith(a)) {
            return true;
          }
        }
      }
      return false;
    };
    var parseRepeatedExtglob = (pattern, requireEnd = true) => {
      if (pattern[0] !== "+" && pattern[0] !== "*" || pattern[1] !== "(") {
        return;
      }
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let escaped = false;
      for (let i = 1; i < pattern.length; i++) {
        const ch = pattern[i];
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          continue;
        }
        if (quote === 1) {
          continue;
        }
        if (ch === "[") {
          bracket++;
          continue;
        }
        if (ch === "]" && bracket > 0) {
          bracket--;
          continue;
        }
        if (bracket > 0) {
          continue;
        }
        if (ch === "(") {
          paren++;
          continue;
        }
        if (ch === ")") {
          paren--;
          if (paren === 0) {
            if (requireEnd === true && i !== pattern.length - 1) {
              return;
            }
            return {
              type: pattern[0],
              body: pattern.slice(2, i),
              end: i
            };
          }
        }
      }
    };
    var buildCharClassStar = (chars) => {
      const source2 = chars.length === 1 ? utils.escapeRegex(chars[0]) : `[${chars.map((ch) => utils.escapeRegex(ch)).join("")}]`;
      return `${source2}*`;
    };
    var getStarExtglobSequenceChars = (pattern) => {
      let index = 0;
      const chars = [];
      while (index < pattern.length) {
        const match = parseRepeatedExtglob(pattern.slice(index), false);
        if (!match || match.type !== "*") {
          return;
        }
        const branches = splitTopLevel(match.body).map((branch2) => branch2.trim());
        if (branches.length !== 1) {
          return;
        }
        const branch = normalizeSimpleBranch(branches[0]);
        if (!branch || branch.length !== 1) {
          return;
        }
        chars.push(branch);
        index += match.end + 1;
      }
      if (chars.length < 1) {
        return;
      }
      return chars;
    };
    var repeatedExtglobRecursion = (pattern) => {
      let depth = 0;
      let value = pattern.trim();
      let match = parseRepeatedExtglob(value);
      while (match) {
        depth++;
        value = match.body.trim();
        match = parseRepeatedExtglob(value);
      }
      return depth;
    };
    var analyzeRepeatedExtglob = (body, options2) => {
      if (options2.maxExtglobRecursion === false) {
        return { risky: false };
      }
      const max = typeof options2.maxExtglobRecursion === "number" ? options2.maxExtglobRecursion : constants.DEFAULT_MAX_EXTGLOB_RECURSION;
      const branches = splitTopLevel(body).map((branch) => branch.trim());
      if (branches.length > 1) {
        if (branches.some((branch) => branch === "") || branches.some((branch) => /^[*?]+$/.test(branch)) || hasRepeatedCharPrefixOverlap(branches)) {
          return { risky: true };
        }
      }
      const safeChars = [];
      let sawStarSequence = false;
      let combinable = true;
      for (const branch of branches) {
        const chars = getStarExtglobSequenceChars(branch);
        if (chars) {
          sawStarSequence = true;
          safeChars.push(...chars);
          continue;
        }
        const literal = normalizeSimpleBranch(branch);
        if (literal && literal.length === 1) {
          safeChars.push(literal);
          continue;
        }
        combinable = false;
        if (repeatedExtglobRecursion(branch) > max) {
          return { risky: true };
        }
      }
      if (sawStarSequence) {
        return combinable ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) } : { risky: true };
      }
      return { risky: false };
    };
    var parse2 = (input, options2) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected a string");
      }
      input = REPLACEMENTS[input] || input;
      const opts = { ...options2 };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      let len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      const bos = { type: "bos", value: "", output: opts.prepend || "" };
      const tokens = [bos];
      const capture = opts.capture ? "" : "?:";
      const PLATFORM_CHARS = constants.globChars(opts.windows);
      const EXTGLOB_CHARS = constants.extglobChars(PLATFORM_CHARS);
      const {
        DOT_LITERAL,
        PLUS_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOT_SLASH,
        NO_DOTS_SLASH,
        QMARK,
        QMARK_NO_DOT,
        STAR,
        START_ANCHOR
      } = PLATFORM_CHARS;
      const globstar = (opts2) => {
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const nodot = opts.dot ? "" : NO_DOT;
      const qmarkNoDot = opts.dot ? QMARK : QMARK_NO_DOT;
      let star = opts.bash === true ? globstar(opts) : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      if (typeof opts.noext === "boolean") {
        opts.noextglob = opts.noext;
      }
      const state = {
        input,
        index: -1,
        start: 0,
        dot: opts.dot === true,
        consumed: "",
        output: "",
        prefix: "",
        backtrack: false,
        negated: false,
        brackets: 0,
        braces: 0,
        parens: 0,
        quotes: 0,
        globstar: false,
        tokens
      };
      input = utils.removePrefix(input, state);
      len = input.length;
      const extglobs = [];
      const braces = [];
      const stack = [];
      let prev = bos;
      let value;
      const eos = () => state.index === len - 1;
      const peek = state.peek = (n = 1) => input[state.index + n];
      const advance = state.advance = () => input[++state.index] || "";
      const remaining = () => input.slice(state.index + 1);
      const consume = (value2 = "", num = 0) => {
        state.consumed += value2;
        state.index += num;
      };
      const append = (token) => {
        state.output += token.output != null ? token.output : token.value;
        consume(token.value);
      };
      const negate = () => {
        let count = 1;
        while (peek() === "!" && (peek(2) !== "(" || peek(3) === "?")) {
          advance();
          state.start++;
          count++;
        }
        if (count % 2 === 0) {
          return false;
        }
        state.negated = true;
        state.start++;
        return true;
      };
      const increment = (type) => {
        state[type]++;
        stack.push(type);
      };
      const decrement = (type) => {
        state[type]--;
        stack.pop();
      };
      const push = (tok) => {
        if (prev.type === "globstar") {
          const isBrace = state.braces > 0 && (tok.type === "comma" || tok.type === "brace");
          const isExtglob = tok.extglob === true || extglobs.length && (tok.type === "pipe" || tok.type === "paren");
          if (tok.type !== "slash" && tok.type !== "paren" && !isBrace && !isExtglob) {
            state.output = state.output.slice(0, -prev.output.length);
            prev.type = "star";
            prev.value = "*";
            prev.output = star;
            state.output += prev.output;
          }
        }
        if (extglobs.length && tok.type !== "paren") {
          extglobs[extglobs.length - 1].inner += tok.value;
        }
        if (tok.value || tok.output) append(tok);
        if (prev && prev.type === "text" && tok.type === "text") {
          prev.output = (prev.output || prev.value) + tok.value;
          prev.value += tok.value;
          return;
        }
        tok.prev = prev;
        tokens.push(tok);
        prev = tok;
      };
      const extglobOpen = (type, value2) => {
        const token = { ...EXTGLOB_CHARS[value2], conditions: 1, inner: "" };
        token.prev = prev;
        token.parens = state.parens;
        token.output = state.output;
        token.startIndex = state.index;
        token.tokensIndex = tokens.length;
        const output = (opts.capture ? "(" : "") + token.open;
        increment("parens");
        push({ type, value: value2, output: state.output ? "" : ONE_CHAR });
        push({ type: "paren", extglob: true, value: advance(), output });
        extglobs.push(token);
      };
      const extglobClose = (token) => {
        const literal = input.slice(token.startIndex, state.index + 1);
        const body = input.slice(token.startIndex + 2, state.index);
        const analysis = analyzeRepeatedExtglob(body, opts);
        if ((token.type === "plus" || token.type === "star") && analysis.risky) {
          const safeOutput = analysis.safeOutput ? (token.output ? "" : ONE_CHAR) + (opts.capture ? `(${analysis.safeOutput})` : analysis.safeOutput) : void 0;
          const open3 = tokens[token.tokensIndex];
          open3.type = "text";
          open3.value = literal;
          open3.output = safeOutput || utils.escapeRegex(literal);
          for (let i = token.tokensIndex + 1; i < tokens.length; i++) {
            tokens[i].value = "";
            tokens[i].output = "";
            delete tokens[i].suffix;
          }
          state.output = token.output + open3.output;
          state.backtrack = true;
          push({ type: "paren", extglob: true, value, output: "" });
          decrement("parens");
          return;
        }
        let output = token.close + (opts.capture ? ")" : "");
        let rest;
        if (token.type === "negate") {
          let extglobStar = star;
          if (token.inner && token.inner.length > 1 && token.inner.includes("/")) {
            extglobStar = globstar(opts);
          }
          if (extglobStar !== star || eos() || /^\)+$/.test(remaining())) {
            output = token.close = `)$))${extglobStar}`;
          }
          if (token.inner.includes("*") && (rest = remaining()) && /^\.[^\\/.]+$/.test(rest)) {
            const expression = parse2(rest, { ...options2, fastpaths: false }).output;
            output = token.close = `)${expression})${extglobStar})`;
          }
          if (token.prev.type === "bos") {
            state.negatedExtglob = true;
          }
        }
        push({ type: "paren", extglob: true, value, output });
        decrement("parens");
      };
      if (opts.fastpaths !== false && !/(^[*!]|[/()[\]{}"])/.test(input)) {
        let backslashes = false;
        let output = input.replace(REGEX_SPECIAL_CHARS_BACKREF, (m, esc, chars, first, rest, index) => {
          if (first === "\\") {
            backslashes = true;
            return m;
          }
          if (first === "?") {
            if (esc) {
              return esc + first + (rest ? QMARK.repeat(rest.length) : "");
            }
            if (index === 0) {
              return qmarkNoDot + (rest ? QMARK.repeat(rest.length) : "");
            }
            return QMARK.repeat(chars.length);
          }
          if (first === ".") {
            return DOT_LITERAL.repeat(chars.length);
          }
          if (first === "*") {
            if (esc) {
              return esc + first + (rest ? star : "");
            }
            return star;
          }
          return esc ? m : `\\${m}`;
        });
        if (backslashes === true) {
          if (opts.unescape === true) {
            output = output.replace(/\\/g, "");
          } else {
            output = output.replace(/\\+/g, (m) => {
              return m.length % 2 === 0 ? "\\\\" : m ? "\\" : "";
            });
          }
        }
        if (output === input && opts.contains === true) {
          state.output = input;
          return state;
        }
        state.output = utils.wrapOutput(output, state, options2);
        return state;
      }
      while (!eos()) {
        value = advance();
        if (value === "\0") {
          continue;
        }
        if (value === "\\") {
          const next = peek();
          if (next === "/" && opts.bash !== true) {
            continue;
          }
          if (next === "." || next === ";") {
            continue;
          }
          if (!next) {
            value += "\\";
            push({ type: "text", value });
            continue;
          }
          const match = /^\\+/.exec(remaining());
          let slashes = 0;
          if (match && match[0].length > 2) {
            slashes = match[0].length;
            state.index += slashes;
            if (slashes % 2 !== 0) {
              value += "\\";
            }
          }
          if (opts.unescape === true) {
            value = advance();
          } else {
            value += advance();
          }
          if (state.brackets === 0) {
            push({ type: "text", value });
            continue;
          }
        }
        if (state.brackets > 0 && (value !== "]" || prev.value === "[" || prev.value === "[^")) {
          if (opts.posix !== false && value === ":") {
            const inner = prev.value.slice(1);
            if (inner.includes("[")) {
              prev.posix = true;
              if (inner.includes(":")) {
                const idx = prev.value.lastIndexOf("[");
                const pre = prev.value.slice(0, idx);
                const rest2 = prev.value.slice(idx + 2);
                const posix = POSIX_REGEX_SOURCE[rest2];
                if (posix) {
                  prev.value = pre + posix;
                  state.backtrack = true;
                  advance();
                  if (!bos.output && tokens.indexOf(prev) === 1) {
                    bos.output = ONE_CHAR;
                  }
                  continue;
                }
              }
            }
          }
          if (value === "[" && peek() !== ":" || value === "-" && peek() === "]") {
            value = `\\${value}`;
          }
          if (value === "]" && (prev.value === "[" || prev.value === "[^")) {
            value = `\\${value}`;
          }
          if (opts.posix === true && value === "!" && prev.value === "[") {
            value = "^";
          }
          prev.value += value;
          append({ value });
          continue;
        }
        if (state.quotes === 1 && value !== '"') {
          value = utils.escapeRegex(value);
          prev.value += value;
          append({ value });
          continue;
        }
        if (value === '"') {
          state.quotes = state.quotes === 1 ? 0 : 1;
          if (opts.keepQuotes === true) {
            push({ type: "text", value });
          }
          continue;
        }
        if (value === "(") {
          increment("parens");
          push({ type: "paren", value });
          continue;
        }
        if (value === ")") {
          if (state.parens === 0 && opts.strictBrackets === true) {
            throw new SyntaxError(syntaxError("opening", "("));
          }
          const extglob = extglobs[extglobs.length - 1];
          if (extglob && state.parens === extglob.parens + 1) {
            extglobClose(extglobs.pop());
            continue;
          }
          push({ type: "paren", value, output: state.parens ? ")" : "\\)" });
          decrement("parens");
          continue;
        }
        if (value === "[") {
          if (opts.nobracket === true || !remaining().includes("]")) {
            if (opts.nobracket !== true && opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("closing", "]"));
            }
            value = `\\${value}`;
          } else {
            increment("brackets");
          }
          push({ type: "bracket", value });
          continue;
        }
        if (value === "]") {
          if (opts.nobracket === true || prev && prev.type === "bracket" && prev.value.length === 1) {
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          if (state.brackets === 0) {
            if (opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("opening", "["));
            }
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          decrement("brackets");
          const prevValue = prev.value.slice(1);
          if (prev.posix !== true && prevValue[0] === "^" && !prevValue.includes("/")) {
            value = `/${value}`;
          }
          prev.value += value;
          append({ value });
          if (opts.literalBrackets === false || utils.hasRegexChars(prevValue)) {
            continue;
          }
          const escaped = utils.escapeRegex(prev.value);
          state.output = state.output.slice(0, -prev.value.length);
          if (opts.literalBrackets === true) {
            state.output += escaped;
            prev.value = escaped;
            continue;
          }
          prev.value = `(${capture}${escaped}|${prev.value})`;
          state.output += prev.value;
          continue;
        }
        if (value === "{" && opts.nobrace !== true) {
          increment("braces");
          const open3 = {
            type: "brace",
            value,
            output: "(",
            outputIndex: state.output.length,
            tokensIndex: state.tokens.length
          };
          braces.push(open3);
          push(open3);
          continue;
        }
        if (value === "}") {
          const brace = braces[braces.length - 1];
          if (opts.nobrace === true || !brace) {
            push({ type: "text", value, output: value });
            continue;
          }
          let output = ")";
          if (brace.dots === true) {
            const arr = tokens.slice();
            const range = [];
            for (let i = arr.length - 1; i >= 0; i--) {
              tokens.pop();
              if (arr[i].type === "brace") {
                break;
              }
              if (arr[i].type !== "dots") {
                range.unshift(arr[i].value);
              }
            }
            output = expandRange(range, opts);
            state.backtrack = true;
          }
          if (brace.comma !== true && brace.dots !== true) {
            const out = state.output.slice(0, brace.outputIndex);
            const toks = state.tokens.slice(brace.tokensIndex);
            brace.value = brace.output = "\\{";
            value = output = "\\}";
            state.output = out;
            for (const t of toks) {
              state.output += t.output || t.value;
            }
          }
          push({ type: "brace", value, output });
          decrement("braces");
          braces.pop();
          continue;
        }
        if (value === "|") {
          if (extglobs.length > 0) {
            extglobs[extglobs.length - 1].conditions++;
          }
          push({ type: "text", value });
          continue;
        }
        if (value === ",") {
          let output = value;
          const brace = braces[braces.length - 1];
          if (brace && stack[stack.length - 1] === "braces") {
            brace.comma = true;
            output = "|";
          }
          push({ type: "comma", value, output });
          continue;
        }
        if (value === "/") {
          if (prev.type === "dot" && state.index === state.start + 1) {
            state.start = state.index + 1;
            state.consumed = "";
            state.output = "";
            tokens.pop();
            prev = bos;
            continue;
          }
          push({ type: "slash", value, output: SLASH_LITERAL });
          continue;
        }
        if (value === ".") {
          if (state.braces > 0 && prev.type === "dot") {
            if (prev.value === ".") prev.output = DOT_LITERAL;
            const brace = braces[braces.length - 1];
            prev.type = "dots";
            prev.output += value;
            prev.value += value;
            brace.dots = true;
            continue;
          }
          if (state.braces + state.parens === 0 && prev.type !== "bos" && prev.type !== "slash") {
            push({ type: "text", value, output: DOT_LITERAL });
            continue;
          }
          push({ type: "dot", value, output: DOT_LITERAL });
          continue;
        }
        if (value === "?") {
          const isGroup = prev && prev.value === "(";
          if (!isGroup && opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("qmark", value);
            continue;
          }
          if (prev && prev.type === "paren") {
            const next = peek();
            let output = value;
            if (prev.value === "(" && !/[!=<:]/.test(next) || next === "<" && !/<([!=]|\w+>)/.test(remaining())) {
              output = `\\${value}`;
            }
            push({ type: "text", value, output });
            continue;
          }
          if (opts.dot !== true && (prev.type === "slash" || prev.type === "bos")) {
            push({ type: "qmark", value, output: QMARK_NO_DOT });
            continue;
          }
          push({ type: "qmark", value, output: QMARK });
          continue;
        }
        if (value === "!") {
          if (opts.noextglob !== true && peek() === "(") {
            if (peek(2) !== "?" || !/[!=<:]/.test(peek(3))) {
              extglobOpen("negate", value);
              continue;
            }
          }
          if (opts.nonegate !== true && state.index === 0) {
            negate();
            continue;
          }
        }
        if (value === "+") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("plus", value);
            continue;
          }
          if (prev && prev.value === "(" || opts.regex === false) {
            push({ type: "plus", value, output: PLUS_LITERAL });
            continue;
          }
          if (prev && (prev.type === "bracket" || prev.type === "paren" || prev.type === "brace") || state.parens > 0) {
            push({ type: "plus", value });
            continue;
          }
          push({ type: "plus", value: PLUS_LITERAL });
          continue;
        }
        if (value === "@") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            push({ type: "at", extglob: true, value, output: "" });
            continue;
          }
          push({ type: "text", value });
          continue;
        }
        if (value !== "*") {
          if (value === "$" || value === "^") {
            value = `\\${value}`;
          }
          const match = REGEX_NON_SPECIAL_CHARS.exec(remaining());
          if (match) {
            value += match[0];
            state.index += match[0].length;
          }
          push({ type: "text", value });
          continue;
        }
        if (prev && (prev.type === "globstar" || prev.star === true)) {
          prev.type = "star";
          prev.star = true;
          prev.value += value;
          prev.output = star;
          state.backtrack = true;
          state.globstar = true;
          consume(value);
          continue;
        }
        let rest = remaining();
        if (opts.noextglob !== true && /^\([^?]/.test(rest)) {
          extglobOpen("star", value);
          continue;
        }
        if (prev.type === "star") {
          if (opts.noglobstar === true) {
            consume(value);
            continue;
          }
          const prior = prev.prev;
          const before = prior.prev;
          const isStart = prior.type === "slash" || prior.type === "bos";
          const afterStar = before && (before.type === "star" || before.type === "globstar");
          if (opts.bash === true && (!isStart || rest[0] && rest[0] !== "/")) {
            push({ type: "star", value, output: "" });
            continue;
          }
          const isBrace = state.braces > 0 && (prior.type === "comma" || prior.type === "brace");
          const isExtglob = extglobs.length && (prior.type === "pipe" || prior.type === "paren");
          if (!isStart && prior.type !== "paren" && !isBrace && !isExtglob) {
            push({ type: "star", value, output: "" });
            continue;
          }
          while (rest.slice(0, 3) === "/**") {
            const after = input[state.index + 4];
            if (after && after !== "/") {
              break;
            }
            rest = rest.slice(3);
            consume("/**", 3);
          }
          const isEnd = eos() || state.parens > 0 && rest === ")".repeat(state.parens) && !extglobs.some((extglob) => extglob.type === "negate");
          if (prior.type === "bos" && eos()) {
            prev.type = "globstar";
            prev.value += value;
            prev.output = globstar(opts);
            state.output = prev.output;
            state.globstar = true;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && !afterStar && isEnd) {
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = globstar(opts) + (opts.strictSlashes ? ")" : "|$)");
            prev.value += value;
            state.globstar = true;
            state.output += prior.output + prev.output;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && rest[0] === "/") {
            const end = rest[1] !== void 0 ? "|$" : "";
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = `${globstar(opts)}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
            prev.value += value;
            state.output += prior.output + prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          if (prior.type === "bos" && rest[0] === "/") {
            prev.type = "globstar";
            prev.value += value;
            prev.output = `(?:^|${SLASH_LITERAL}|${globstar(opts)}${SLASH_LITERAL})`;
            state.output = prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          state.output = state.output.slice(0, -prev.output.length);
          prev.type = "globstar";
          prev.output = globstar(opts);
          prev.value += value;
          state.output += prev.output;
          state.globstar = true;
          consume(value);
          continue;
        }
        const token = { type: "star", value, output: star };
        if (opts.bash === true) {
          token.output = ".*?";
          if (prev.type === "bos" || prev.type === "slash") {
            token.output = nodot + token.output;
          }
          push(token);
          continue;
        }
        if (prev && (prev.type === "bracket" || prev.type === "paren") && opts.regex === true) {
          token.output = value;
          push(token);
          continue;
        }
        if (state.index === state.start || prev.type === "slash" || prev.type === "dot") {
          if (prev.type === "dot") {
            state.output += NO_DOT_SLASH;
            prev.output += NO_DOT_SLASH;
          } else if (opts.dot === true) {
            state.output += NO_DOTS_SLASH;
            prev.output += NO_DOTS_SLASH;
          } else {
            state.output += nodot;
            prev.output += nodot;
          }
          if (peek() !== "*") {
            state.output += ONE_CHAR;
            prev.output += ONE_CHAR;
          }
        }
        push(token);
      }
      while (state.brackets > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "]"));
        state.output = utils.escapeLast(state.output, "[");
        decrement("brackets");
      }
      while (state.parens > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", ")"));
        state.output = utils.escapeLast(state.output, "(");
        decrement("parens");
      }
      while (state.braces > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "}"));
        state.output = utils.escapeLast(state.output, "{");
        decrement("braces");
      }
      if (opts.strictSlashes !== true && (prev.type === "star" || prev.type === "bracket")) {
        push({ type: "maybe_slash", value: "", output: `${SLASH_LITERAL}?` });
      }
      if (state.backtrack === true) {
        state.output = "";
        for (const token of state.tokens) {
          state.output += token.output != null ? token.output : token.value;
          if (token.suffix) {
            state.output += token.suffix;
          }
        }
      }
      return state;
    };
    parse2.fastpaths = (input, options2) => {
      const opts = { ...options2 };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      const len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      input = REPLACEMENTS[input] || input;
      const {
        DOT_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOTS,
        NO_DOTS_SLASH,
        STAR,
        START_ANCHOR
      } = constants.globChars(opts.windows);
      const nodot = opts.dot ? NO_DOTS : NO_DOT;
      const slashDot = opts.dot ? NO_DOTS_SLASH : NO_DOT;
      const capture = opts.capture ? "" : "?:";
      const state = { negated: false, prefix: "" };
      let star = opts.bash === true ? ".*?" : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      const globstar = (opts2) => {
        if (opts2.noglobstar === true) return star;
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const create = (str2) => {
        switch (str2) {
          case "*":
            return `${nodot}${ONE_CHAR}${star}`;
          case ".*":
            return `${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*.*":
            return `${nodot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*/*":
            return `${nodot}${star}${SLASH_LITERAL}${ONE_CHAR}${slashDot}${star}`;
          case "**":
            return nodot + globstar(opts);
          case "**/*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${ONE_CHAR}${star}`;
          case "**/*.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "**/.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${star}`;
          default: {
            const match = /^(.*?)\.(\w+)$/.exec(str2);
            if (!match) return;
            const source3 = create(match[1]);
            if (!source3) return;
            return source3 + DOT_LITERAL + match[2];
          }
        }
      };
      const output = utils.removePrefix(input, state);
      let source2 = create(output);
      if (source2 && opts.strictSlashes !== true) {
        source2 += `${SLASH_LITERAL}?`;
      }
      return source2;
    };
    module2.exports = parse2;
  }
});

// node_modules/picomatch/lib/picomatch.js
var require_picomatch = __commonJS({
  "node_modules/picomatch/lib/picomatch.js"(exports2, module2) {
    "use strict";
    var scan = require_scan();
    var parse2 = require_parse();
    var utils = require_utils();
    var constants = require_constants();
    var isObject = (val) => val && typeof val === "object" && !Array.isArray(val);
    var picomatch2 = (glob, options2, returnState = false) => {
      if (Array.isArray(glob)) {
        const fns = glob.map((input) => picomatch2(input, options2, returnState));
        const arrayMatcher = (str2) => {
          for (const isMatch of fns) {
            const state2 = isMatch(str2);
            if (state2) return state2;
          }
          return false;
        };
        return arrayMatcher;
      }
      const isState = isObject(glob) && glob.tokens && glob.input;
      if (glob === "" || typeof glob !== "string" && !isState) {
        throw new TypeError("Expected pattern to be a non-empty string");
      }
      const opts = options2 || {};
      const posix = opts.windows;
      const regex = isState ? picomatch2.compileRe(glob, options2) : picomatch2.makeRe(glob, options2, false, true);
      const state = regex.state;
      delete regex.state;
      let isIgnored = () => false;
      if (opts.ignore) {
        const ignoreOpts = { ...options2, ignore: null, onMatch: null, onResult: null };
        isIgnored = picomatch2(opts.ignore, ignoreOpts, returnState);
      }
      const matcher = (input, returnObject = false) => {
        const { isMatch, match, output } = picomatch2.test(input, regex, options2, { glob, posix });
        const result = { glob, state, regex, posix, input, output, match, isMatch };
        if (typeof opts.onResult === "function") {
          opts.onResult(result);
        }
        if (isMatch === false) {
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (isIgnored(input)) {
          if (typeof opts.onIgnore === "function") {
            opts.onIgnore(result);
          }
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (typeof opts.onMatch === "function") {
          opts.onMatch(result);
        }
        return returnObject ? result : true;
      };
      if (returnState) {
        matcher.state = state;
      }
      return matcher;
    };
    picomatch2.test = (input, regex, options2, { glob, posix } = {}) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected input to be a string");
      }
      if (input === "") {
        return { isMatch: false, output: "" };
      }
      const opts = options2 || {};
      const format = opts.format || (posix ? utils.toPosixSlashes : null);
      let match = input === glob;
      let output = match && format ? format(input) : input;
      if (match === false) {
        output = format ? format(input) : input;
        match = output === glob;
      }
      if (match === false || opts.capture === true) {
        if (opts.matchBase === true || opts.basename === true) {
          match = picomatch2.matchBase(input, regex, options2, posix);
        } else {
          match = regex.exec(output);
        }
      }
      return { isMatch: Boolean(match), match, output };
    };
    picomatch2.matchBase = (input, glob, options2, posix = options2 && options2.windows) => {
      const regex = glob instanceof RegExp ? glob : picomatch2.makeRe(glob, options2);
      return regex.test(utils.basename(input, { windows: posix }));
    };
    picomatch2.isMatch = (str2, patterns, options2) => picomatch2(patterns, options2)(str2);
    picomatch2.parse = (pattern, options2) => {
      if (Array.isArray(pattern)) return pattern.map((p) => picomatch2.parse(p, options2));
      return parse2(pattern, { ...options2, fastpaths: false });
    };
    picomatch2.scan = (input, options2) => scan(input, options2);
    picomatch2.compileRe = (state, options2, returnOutput = false, returnState = false) => {
      if (returnOutput === true) {
        return state.output;
      }
      const opts = options2 || {};
      const prepend = opts.contains ? "" : "^";
      const append = opts.contains ? "" : "$";
      let source2 = `${prepend}(?:${state.output})${append}`;
      if (state && state.negated === true) {
        source2 = `^(?!${source2}).*$`;
      }
      const regex = picomatch2.toRegex(source2, options2);
      if (returnState === true) {
        regex.state = state;
      }
      return regex;
    };
    picomatch2.makeRe = (input, options2 = {}, returnOutput = false, returnState = false) => {
      if (!input || typeof input !== "string") {
        throw new TypeError("Expected a non-empty string");
      }
      let parsed = { negated: false, fastpaths: true };
      if (options2.fastpaths !== false && (input[0] === "." || input[0] === "*")) {
        parsed.output = parse2.fastpaths(input, options2);
      }
      if (!parsed.output) {
        parsed = parse2(input, options2);
      }
      return picomatch2.compileRe(parsed, options2, returnOutput, returnState);
    };
    picomatch2.toRegex = (source2, options2) => {
      try {
        const opts = options2 || {};
        return new RegExp(source2, opts.flags || (opts.nocase ? "i" : ""));
      } catch (err) {
        if (options2 && options2.debug === true) throw err;
        return /$^/;
      }
    };
    picomatch2.constants = constants;
    module2.exports = picomatch2;
  }
});

// node_modules/picomatch/index.js
var require_picomatch2 = __commonJS({
  "node_modules/picomatch/index.js"(exports2, module2) {
    "use strict";
    var pico = require_picomatch();
    var utils = require_utils();
    function picomatch2(glob, options2, returnState = false) {
      if (options2 && (options2.windows === null || options2.windows === void 0)) {
        options2 = { ...options2, windows: utils.isWindows() };
      }
      return pico(glob, options2, returnState);
    }
    Object.assign(picomatch2, pico);
    module2.exports = picomatch2;
  }
});

// src/lib/memory/scan.ts
import { lstatSync, readdirSync as readdirSync2, realpathSync, statSync as statSync5 } from "node:fs";
import { sep as pathSep } from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
function isIgnoredName(name) {
  return name.startsWith(".") || TEMP_NAME.test(name) || name.startsWith("#") && name.endsWith("#") || name === "4913";
}
function hasMemoryExtension(name, kind) {
  const lower = name.toLowerCase();
  if (lower.endsWith(".md")) return lower.length > 3;
  return kind === "extra" && lower.endsWith(".markdown") && lower.length > 9;
}
function compareCodeUnits(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
function inChain(chain, real) {
  for (let c = chain; c; c = c.parent) if (c.real === real) return true;
  return false;
}
function joinPath(base, name, separator) {
  return base.endsWith(separator) ? base + name : base + separator + name;
}
function codeOf(error) {
  return error?.code;
}
async function scanSources(sources, options2 = {}) {
  const patterns = (options2.exclude ?? []).filter((p) => p.trim() !== "");
  const excluded = patterns.length === 0 ? () => false : (0, import_picomatch.default)(patterns, { dot: true });
  const fs = options2.fs ?? nodeScanFs;
  const pacer = new Pacer(options2.sliceMs ?? 8, options2.signal);
  options2.signal?.throwIfAborted();
  const scans = sources.map((source2) => new SourceScan(source2, fs, excluded, pacer));
  for (const scan of scans) {
    await scan.run();
    await pacer.pause();
  }
  const byRel = (a, b) => compareCodeUnits(a.relPath, b.relPath);
  return {
    files: scans.flatMap((s) => s.files.sort(byRel)),
    problems: scans.flatMap((s) => s.problems.sort(byRel)),
    missingRoots: scans.flatMap((s, i) => s.missing ? [sources[i]?.name ?? ""] : [])
  };
}
var import_picomatch, nodeScanFs, MAX_DEPTH, TEMP_NAME, Pacer, SourceScan;
var init_scan = __esm({
  "src/lib/memory/scan.ts"() {
    "use strict";
    import_picomatch = __toESM(require_picomatch2(), 1);
    nodeScanFs = {
      readdir: (path) => readdirSync2(path, { withFileTypes: true }),
      stat: (path) => statSync5(path),
      lstat: (path) => lstatSync(path),
      // The native realpath(3): one syscall, where the JS version lstats every path component.
      realpath: (path) => realpathSync.native(path)
    };
    MAX_DEPTH = 48;
    TEMP_NAME = /(?:\.swp|\.swo|~|\.tmp|\.crswap)$/i;
    Pacer = class {
      constructor(sliceMs, signal) {
        this.sliceMs = sliceMs;
        this.signal = signal;
      }
      sliceMs;
      signal;
      last = performance.now();
      ops = 0;
      due() {
        return (++this.ops & 63) === 0 && performance.now() - this.last >= this.sliceMs;
      }
      async pause() {
        await yieldToEventLoop();
        this.signal?.throwIfAborted();
        this.last = performance.now();
      }
    };
    SourceScan = class {
      constructor(source2, fs, excluded, pacer) {
        this.source = source2;
        this.fs = fs;
        this.excluded = excluded;
        this.pacer = pacer;
      }
      source;
      fs;
      excluded;
      pacer;
      files = [];
      problems = [];
      missing = false;
      stack = [];
      problem(rel, abs, reason, message) {
        this.problems.push({ source: this.source.name, relPath: rel, absPath: abs, reason, message });
      }
      fsProblem(rel, abs, error, what) {
        const code = codeOf(error);
        const detail = error.message ?? String(error);
        if (code === "EACCES" || code === "EPERM") this.problem(rel, abs, "unreadable", `cannot read ${what}: permission denied (${code})`);
        else if (code === "ENOENT" || code === "ENOTDIR") this.problem(rel, abs, "vanished", `${what} disappeared while scanning (${code})`);
        else if (code === "ELOOP") this.problem(rel, abs, "symlink-loop", `${what} is a symlink loop (ELOOP)`);
        else this.problem(rel, abs, "error", `cannot read ${what}: ${detail}`);
      }
      isCandidate(name, rel) {
        if (isIgnoredName(name) || !hasMemoryExtension(name, this.source.kind)) return false;
        if (this.source.kind === "auto-memory" && name === "MEMORY.md") return false;
        return !this.excluded(rel);
      }
      addFile(rel, abs, st) {
        const file = { source: this.source.name, kind: this.source.kind, relPath: rel, absPath: abs, mtimeMs: st.mtimeMs, size: st.size };
        if (this.source.kind === "auto-memory") {
          const slash = rel.indexOf("/");
          file.project = slash === -1 ? rel : rel.slice(0, slash);
        }
        this.files.push(file);
      }
      async run() {
        const root = this.source.root;
        let rootReal;
        try {
          rootReal = this.fs.realpath(root);
        } catch (error) {
          if (codeOf(error) === "ENOENT") this.missing = true;
          else this.fsProblem("", root, error, "source folder");
          return;
        }
        const rootChain = { real: rootReal, parent: void 0 };
        if (this.source.kind === "extra") {
          this.stack.push({ abs: root, rel: "", chain: rootChain, depth: 0, role: "root" });
        } else if (this.source.kind === "pai") {
          for (const name of ["LEARNING", "RESEARCH"]) this.addStart(root, rootChain, name);
        } else {
          let projects;
          try {
            projects = this.fs.readdir(root);
          } catch (error) {
            if (codeOf(error) === "ENOTDIR") this.problem("", root, "error", "source root is not a folder");
            else this.fsProblem("", root, error, "folder");
            return;
          }
          for (const p of projects) if (!p.name.startsWith(".") && !p.isFile()) this.addStart(root, rootChain, `${p.name}/memory`);
        }
        for (let dir = this.stack.pop(); dir !== void 0; dir = this.stack.pop()) {
          await this.list(dir);
        }
      }
      /** A fixed subfolder we look into (PAI's LEARNING, a project's memory): missing is normal. */
      addStart(root, rootChain, rel) {
        const abs = joinPath(root, rel.split("/").join(pathSep), pathSep);
        let real;
        try {
          real = this.fs.realpath(abs);
        } catch (error) {
          const code = codeOf(error);
          if (code !== "ENOENT" && code !== "ENOTDIR") this.fsProblem(rel, abs, error, "folder");
          return;
        }
        if (inChain(rootChain, real)) this.problem(rel, abs, "symlink-loop", "folder is a symlink to one of its parent folders");
        else this.stack.push({ abs, rel, chain: { real, parent: rootChain }, depth: 1, role: "start" });
      }
      async list(dir) {
        if (dir.depth >= MAX_DEPTH) {
          this.problem(dir.rel, dir.abs, "error", `folder nesting deeper than ${MAX_DEPTH} levels (symlinks?): not descending further`);
          return;
        }
        let entries;
        try {
          entries = this.fs.readdir(dir.abs);
        } catch (error) {
          const code = codeOf(error);
          if (code === "ENOTDIR" && dir.role === "root") this.problem(dir.rel, dir.abs, "error", "source root is not a folder");
          else if (code !== "ENOTDIR" || dir.role !== "start") this.fsProblem(dir.rel, dir.abs, error, "folder");
          return;
        }
        const prefix = dir.rel === "" ? "" : `${dir.rel}/`;
        for (const entry of entries) {
          if (this.pacer.due()) await this.pacer.pause();
          const name = entry.name;
          if (name.startsWith(".")) continue;
          const rel = prefix + name;
          const abs = joinPath(dir.abs, name, pathSep);
          if (entry.isDirectory()) {
            if (name === "node_modules") continue;
            const real = joinPath(dir.chain.real, name, pathSep);
            this.stack.push({ abs, rel, chain: { real, parent: dir.chain }, depth: dir.depth + 1, role: "nested" });
          } else if (entry.isFile()) {
            if (this.isCandidate(name, rel)) this.statFile(rel, abs);
          } else if (entry.isSymbolicLink()) {
            this.followLink(dir, name, rel, abs);
          } else if (!entry.isFIFO() && !entry.isSocket() && !entry.isBlockDevice() && !entry.isCharacterDevice()) {
            this.unknownType(dir, name, rel, abs);
          }
        }
      }
      statFile(rel, abs) {
        let st;
        try {
          st = this.fs.stat(abs);
        } catch (error) {
          this.fsProblem(rel, abs, error, "file");
          return;
        }
        if (st.isFile()) this.addFile(rel, abs, st);
      }
      followLink(dir, name, rel, abs) {
        let st;
        try {
          st = this.fs.stat(abs);
        } catch (error) {
          if (codeOf(error) === "ENOENT") {
            if (this.isCandidate(name, rel)) this.problem(rel, abs, "vanished", "dangling symlink: its target does not exist");
          } else this.fsProblem(rel, abs, error, "symlink");
          return;
        }
        if (st.isFile()) {
          if (this.isCandidate(name, rel)) this.addFile(rel, abs, st);
        } else if (st.isDirectory() && name !== "node_modules") {
          this.linkedDir(dir, rel, abs);
        }
      }
      linkedDir(dir, rel, abs) {
        let real;
        try {
          real = this.fs.realpath(abs);
        } catch (error) {
          this.fsProblem(rel, abs, error, "symlink");
          return;
        }
        if (inChain(dir.chain, real)) this.problem(rel, abs, "symlink-loop", "symlink points to one of its parent folders; not followed");
        else this.stack.push({ abs, rel, chain: { real, parent: dir.chain }, depth: dir.depth + 1, role: "nested" });
      }
      unknownType(dir, name, rel, abs) {
        let st;
        try {
          st = this.fs.lstat(abs);
        } catch (error) {
          this.fsProblem(rel, abs, error, "entry");
          return;
        }
        if (st.isSymbolicLink()) this.followLink(dir, name, rel, abs);
        else if (st.isDirectory()) {
          if (name !== "node_modules") this.linkedDir(dir, rel, abs);
        } else if (st.isFile() && this.isCandidate(name, rel)) this.addFile(rel, abs, st);
      }
    };
  }
});

// src/lib/state/lock.ts
import { randomBytes as randomBytes3 } from "node:crypto";
import { readFileSync as readFileSync10, unlinkSync as unlinkSync4 } from "node:fs";
import { mkdir as mkdir2, readdir as readdir2, stat as stat2, unlink as unlink2, utimes } from "node:fs/promises";
import { hostname as osHostname } from "node:os";
import { join as join11 } from "node:path";
import { setTimeout as sleep2 } from "node:timers/promises";
function describeOwner(owner) {
  if (owner === void 0) return "an unknown owner (lock file unreadable or being written)";
  const label = owner.label ? ` (${owner.label})` : "";
  return `pid ${owner.pid} on ${owner.hostname}${label} since ${owner.startedAt}`;
}
function lockFilePath(stateDir, name = LOCK_FILE) {
  return join11(stateDir, name);
}
function parseOwner(text2) {
  try {
    const v = JSON.parse(text2);
    if (v && typeof v === "object" && typeof v.pid === "number" && typeof v.token === "string" && typeof v.hostname === "string") {
      return v;
    }
  } catch {
  }
  return void 0;
}
async function observe(path) {
  const seen = readLockFile(path);
  return seen === void 0 ? void 0 : { owner: parseOwner(seen.text), mtimeMs: seen.mtimeMs, ino: seen.ino, dev: seen.dev, text: seen.text };
}
function staleReason(seen, staleMs, now = Date.now()) {
  const owner = seen.owner;
  if (owner !== void 0 && owner.hostname === hostName) {
    if (owner.pid === process.pid && !ownTokens.has(owner.token) && Date.parse(owner.startedAt) < processStartedAt - 1e3) {
      return `owner pid ${owner.pid} was an earlier process with our pid`;
    }
    if (owner.pid !== process.pid && !isProcessAlive(owner.pid)) return `owner pid ${owner.pid} is gone`;
  }
  const threshold = Math.max(staleMs, owner?.staleMs ?? 0);
  const age = now - seen.mtimeMs;
  if (age > threshold) return `no heartbeat for ${Math.round(age)} ms (stale after ${threshold} ms)`;
  return void 0;
}
async function takeOver(path, seen, myToken) {
  return removeStaleLock(path, seen, (a, b) => sameLockFile(a, b, tokenOf), myToken);
}
async function removeLeftovers(stateDir, name) {
  let names;
  try {
    names = await readdir2(stateDir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const entry of names) {
    if (!entry.startsWith(`${name}.`) || !(entry.endsWith(".tmp") || entry.startsWith(`${name}.stale-`))) continue;
    const full = join11(stateDir, entry);
    try {
      const st = await stat2(full);
      if (now - st.mtimeMs > 6e4) await unlink2(full);
    } catch {
    }
  }
}
function installExitHandler() {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.once("exit", () => {
    for (const lock of heldLocks) lock.releaseSync();
  });
}
async function attempt(stateDir, path, options2, staleMs) {
  const token = randomBytes3(12).toString("hex");
  const owner = { tool: "graphiti-memory-sync", pid: process.pid, hostname: hostName, startedAt: (/* @__PURE__ */ new Date()).toISOString(), token, staleMs };
  if (options2.label !== void 0) owner.label = options2.label;
  ownTokens.add(token);
  try {
    await mkdir2(stateDir, { recursive: true, mode: 448 });
    for (let round = 0; round < 5; round++) {
      if (createLockFile(path, `${JSON.stringify(owner)}
`, token)) {
        const lock = new LockImpl(path, owner, options2.heartbeatMs ?? Math.max(10, Math.floor(staleMs / 3)), options2.onLost);
        await removeLeftovers(stateDir, options2.name ?? LOCK_FILE);
        return { lock };
      }
      const seen2 = await observe(path);
      if (seen2 === void 0) continue;
      if (staleReason(seen2, staleMs) === void 0) return { held: seen2 };
      await takeOver(path, seen2, token);
    }
    const seen = await observe(path);
    return { held: seen ?? { owner: void 0, mtimeMs: Date.now(), ino: 0, dev: 0, text: "" } };
  } finally {
    if (![...heldLocks].some((l) => l.owner.token === token)) ownTokens.delete(token);
  }
}
async function acquireLock(stateDir, options2 = {}) {
  const path = lockFilePath(stateDir, options2.name);
  const timeoutMs = options2.timeoutMs ?? DEFAULT_TIMEOUT_MS2;
  const staleMs = options2.staleMs ?? DEFAULT_STALE_MS;
  const started = Date.now();
  const deadline = started + timeoutMs;
  const maxPoll = Math.max(5, Math.min(MAX_POLL_MS, Math.floor(staleMs / 4)));
  let delay = FIRST_POLL_MS;
  let lastHolderToken = null;
  for (; ; ) {
    options2.signal?.throwIfAborted();
    const result = await attempt(stateDir, path, options2, staleMs);
    if ("lock" in result) return result.lock;
    const holder = result.held.owner;
    const holderToken = holder?.token ?? "";
    if (holderToken !== lastHolderToken) {
      lastHolderToken = holderToken;
      delay = FIRST_POLL_MS;
      options2.onWait?.(holder);
    }
    const now = Date.now();
    if (now >= deadline) throw new LockTimeoutError(path, holder, now - started, Date.now() - result.held.mtimeMs);
    const jittered = Math.round(delay * (0.75 + Math.random() * 0.5));
    try {
      await sleep2(Math.max(1, Math.min(jittered, deadline - now)), void 0, options2.signal ? { signal: options2.signal } : void 0);
    } catch (error) {
      options2.signal?.throwIfAborted();
      throw error;
    }
    delay = Math.min(maxPoll, Math.ceil(delay * 1.5));
  }
}
async function withLock(stateDir, fn, options2 = {}) {
  const lock = await acquireLock(stateDir, options2);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}
var LOCK_FILE, LockTimeoutError, LockLostError, DEFAULT_TIMEOUT_MS2, DEFAULT_STALE_MS, FIRST_POLL_MS, MAX_POLL_MS, hostName, processStartedAt, ownTokens, heldLocks, exitHandlerInstalled, tokenOf, LockImpl;
var init_lock = __esm({
  "src/lib/state/lock.ts"() {
    "use strict";
    init_process_alive();
    init_lock_file();
    LOCK_FILE = "sync.lock";
    LockTimeoutError = class extends Error {
      constructor(lockPath, holder, waitedMs, heartbeatAgeMs) {
        const age = heartbeatAgeMs === void 0 ? "" : `, last heartbeat ${Math.round(heartbeatAgeMs / 100) / 10}s ago`;
        super(`Timed out after ${waitedMs} ms waiting for lock ${lockPath}: held by ${describeOwner(holder)}${age}`);
        this.lockPath = lockPath;
        this.holder = holder;
        this.waitedMs = waitedMs;
        this.heartbeatAgeMs = heartbeatAgeMs;
        this.name = "LockTimeoutError";
      }
      lockPath;
      holder;
      waitedMs;
      heartbeatAgeMs;
    };
    LockLostError = class extends Error {
      constructor(lockPath, holder) {
        super(`Lock ${lockPath} is no longer ours: now held by ${holder === void 0 ? "nobody" : describeOwner(holder)}`);
        this.lockPath = lockPath;
        this.holder = holder;
        this.name = "LockLostError";
      }
      lockPath;
      holder;
    };
    DEFAULT_TIMEOUT_MS2 = 3e4;
    DEFAULT_STALE_MS = 3e4;
    FIRST_POLL_MS = 15;
    MAX_POLL_MS = 500;
    hostName = osHostname();
    processStartedAt = Date.now() - process.uptime() * 1e3;
    ownTokens = /* @__PURE__ */ new Set();
    heldLocks = /* @__PURE__ */ new Set();
    exitHandlerInstalled = false;
    tokenOf = (text2) => parseOwner(text2)?.token;
    LockImpl = class {
      constructor(path, owner, heartbeatMs, onLost) {
        this.path = path;
        this.owner = owner;
        this.onLost = onLost;
        heldLocks.add(this);
        installExitHandler();
        if (heartbeatMs > 0) {
          this.timer = setInterval(() => {
            if (this.beating) return;
            this.beating = true;
            this.refresh().catch(() => void 0).finally(() => {
              this.beating = false;
            });
          }, heartbeatMs);
          this.timer.unref();
        }
      }
      path;
      owner;
      onLost;
      lost = false;
      released = false;
      timer;
      beating = false;
      markLost(holder) {
        const error = new LockLostError(this.path, holder);
        if (!this.lost) {
          this.lost = true;
          this.stop();
          this.onLost?.(error);
        }
        return error;
      }
      stop() {
        if (this.timer) clearInterval(this.timer);
        this.timer = void 0;
        heldLocks.delete(this);
        ownTokens.delete(this.owner.token);
      }
      async refresh() {
        if (this.released) throw new Error(`Lock ${this.path} was already released`);
        if (this.lost) throw new LockLostError(this.path, void 0);
        const seen = await observe(this.path);
        if (this.released) return;
        if (seen === void 0 || seen.owner?.token !== this.owner.token) throw this.markLost(seen?.owner);
        const now = /* @__PURE__ */ new Date();
        await utimes(this.path, now, now).catch((error) => {
          if (!this.released) throw error;
        });
      }
      async release() {
        if (this.released) return;
        this.released = true;
        const wasLost = this.lost;
        this.stop();
        if (wasLost) return;
        const seen = await observe(this.path).catch(() => void 0);
        if (seen?.owner?.token === this.owner.token) await unlink2(this.path).catch(() => void 0);
      }
      releaseSync() {
        if (this.released || this.lost) return;
        this.released = true;
        this.stop();
        try {
          if (parseOwner(readFileSync10(this.path, "utf8"))?.token === this.owner.token) unlinkSync4(this.path);
        } catch {
        }
      }
    };
  }
});

// src/lib/state/types.ts
function countByStatus(records, include = () => true) {
  const counts = { pending: 0, queued: 0, confirmed: 0, failed: 0, skipped: 0 };
  for (const record of records) if (include(record)) counts[record.status]++;
  return counts;
}
var STATE_TOOL, STATE_VERSION, STATE_FILE, FILE_STATUSES, StateConflictError;
var init_types2 = __esm({
  "src/lib/state/types.ts"() {
    "use strict";
    STATE_TOOL = "graphiti-memory-sync";
    STATE_VERSION = 1;
    STATE_FILE = "state.json";
    FILE_STATUSES = ["pending", "queued", "confirmed", "failed", "skipped"];
    StateConflictError = class extends Error {
      constructor(message, path, kind, foundTool, foundVersion) {
        super(message);
        this.path = path;
        this.kind = kind;
        this.foundTool = foundTool;
        this.foundVersion = foundVersion;
        this.name = "StateConflictError";
      }
      path;
      kind;
      foundTool;
      foundVersion;
    };
  }
});

// src/lib/state/validate.ts
function looksLikeEpisodeRef(v) {
  if (!isRecord(v)) return false;
  return isStr(v.marker) && isStr(v.name) && isStr(v.groupId) && isCount(v.part) && isCount(v.parts) && v.parts > 0 && optStr(v.uuid) && optStr(v.sentAt) && optStr(v.queuedAt) && optStr(v.confirmedAt) && isCount(v.resends);
}
function looksLikeFileRecord(v) {
  if (!isRecord(v)) return false;
  return isStr(v.id) && isStr(v.source) && FILE_KINDS.has(v.kind) && isStr(v.relPath) && optStr(v.project) && isStr(v.fileId) && optStr(v.hash) && typeof v.mtimeMs === "number" && typeof v.size === "number" && v.size >= 0 && STATUSES.has(v.status) && optStr(v.skipReason) && Array.isArray(v.episodes) && v.episodes.every(looksLikeEpisodeRef) && Array.isArray(v.superseded) && v.superseded.every(looksLikeEpisodeRef) && isCount(v.attempts) && optStr(v.lastError) && (v.redactions === void 0 || isCount(v.redactions)) && (v.warnings === void 0 || Array.isArray(v.warnings) && v.warnings.every(isStr)) && isStr(v.firstSeenAt) && isStr(v.updatedAt) && optStr(v.queuedAt) && optStr(v.confirmedAt);
}
function emptyFiles() {
  return /* @__PURE__ */ Object.create(null);
}
function describeZodError(error, prefix = []) {
  const issue = error.issues[0];
  if (issue === void 0) return "schema mismatch";
  const path = [...prefix, ...issue.path].map((p) => typeof p === "number" ? `[${p}]` : `.${JSON.stringify(p).slice(1, -1)}`).join("");
  return `schema mismatch at ${path || "(root)"}: ${issue.message}`;
}
function validate(raw, path) {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, reason: "schema mismatch: not a JSON object" };
  const obj = raw;
  if (typeof obj.tool === "string" && obj.tool !== STATE_TOOL) {
    return {
      ok: "conflict",
      error: new StateConflictError(
        `State file ${path} was written by "${obj.tool}", not ${STATE_TOOL}. Refusing to use or overwrite it: point MADEINOZ_KNOWLEDGE_STATE_DIR at a folder of its own, or move the file away.`,
        path,
        "foreign",
        obj.tool,
        typeof obj.version === "number" ? obj.version : void 0
      )
    };
  }
  if (obj.tool === STATE_TOOL && typeof obj.version === "number" && obj.version > STATE_VERSION) {
    return {
      ok: "conflict",
      error: new StateConflictError(
        `State file ${path} has format version ${obj.version}, newer than this build understands (${STATE_VERSION}). Refusing to use or overwrite it: upgrade graphiti-memory-sync.`,
        path,
        "newer",
        STATE_TOOL,
        obj.version
      )
    };
  }
  const top = stateSchema.safeParse(obj);
  if (!top.success) return { ok: false, reason: describeZodError(top.error) };
  const files = emptyFiles();
  const rawFiles = obj.files;
  for (const key of Object.keys(rawFiles)) {
    const value = rawFiles[key];
    let record;
    if (looksLikeFileRecord(value)) {
      record = value;
    } else {
      const parsed = fileRecordSchema.safeParse(value);
      if (!parsed.success) return { ok: false, reason: describeZodError(parsed.error, ["files", key]) };
      record = parsed.data;
    }
    if (record.id !== key) return { ok: false, reason: `schema mismatch at .files.${key}: id "${record.id}" does not match its key` };
    files[key] = record;
  }
  const state = { ...top.data, files };
  return { ok: true, state };
}
var episodeRefSchema, fileRecordSchema, stateSchema, isStr, optStr, isCount, FILE_KINDS, STATUSES;
var init_validate = __esm({
  "src/lib/state/validate.ts"() {
    "use strict";
    init_v3();
    init_json();
    init_types2();
    episodeRefSchema = external_exports.object({
      marker: external_exports.string(),
      name: external_exports.string(),
      groupId: external_exports.string(),
      part: external_exports.number().int().nonnegative(),
      parts: external_exports.number().int().positive(),
      uuid: external_exports.string().optional(),
      sentAt: external_exports.string().optional(),
      queuedAt: external_exports.string().optional(),
      confirmedAt: external_exports.string().optional(),
      resends: external_exports.number().int().nonnegative()
    }).passthrough();
    fileRecordSchema = external_exports.object({
      id: external_exports.string(),
      source: external_exports.string(),
      kind: external_exports.enum(["pai", "auto-memory", "extra"]),
      relPath: external_exports.string(),
      project: external_exports.string().optional(),
      fileId: external_exports.string(),
      hash: external_exports.string().optional(),
      mtimeMs: external_exports.number(),
      size: external_exports.number().nonnegative(),
      status: external_exports.enum(["pending", "queued", "confirmed", "failed", "skipped"]),
      skipReason: external_exports.string().optional(),
      episodes: external_exports.array(episodeRefSchema),
      superseded: external_exports.array(episodeRefSchema),
      attempts: external_exports.number().int().nonnegative(),
      lastError: external_exports.string().optional(),
      redactions: external_exports.number().int().nonnegative().optional(),
      warnings: external_exports.array(external_exports.string()).optional(),
      firstSeenAt: external_exports.string(),
      updatedAt: external_exports.string(),
      queuedAt: external_exports.string().optional(),
      confirmedAt: external_exports.string().optional()
    }).passthrough();
    stateSchema = external_exports.object({
      tool: external_exports.literal(STATE_TOOL),
      version: external_exports.literal(STATE_VERSION),
      createdAt: external_exports.string(),
      updatedAt: external_exports.string(),
      // Validated record by record below: z.record would rebuild the object with plain assignment.
      files: external_exports.custom((v) => typeof v === "object" && v !== null && !Array.isArray(v), { message: "files must be an object" }),
      orphans: external_exports.array(episodeRefSchema),
      lastRun: external_exports.object({ startedAt: external_exports.string(), finishedAt: external_exports.string().optional(), summary: external_exports.record(external_exports.number()).optional() }).passthrough().optional(),
      generation: external_exports.number().int().nonnegative().optional()
    }).passthrough();
    isStr = (v) => typeof v === "string";
    optStr = (v) => v === void 0 || typeof v === "string";
    isCount = (v) => Number.isInteger(v) && v >= 0;
    FILE_KINDS = /* @__PURE__ */ new Set(["pai", "auto-memory", "extra"]);
    STATUSES = new Set(FILE_STATUSES);
  }
});

// src/lib/state/journal.ts
import { mkdir as mkdir3, open as open2, readFile as readFile2, readdir as readdir3, rename as rename2, unlink as unlink3 } from "node:fs/promises";
import { join as join12 } from "node:path";
function timestampForFileName(date = /* @__PURE__ */ new Date()) {
  return date.toISOString().replace(/[:.]/g, "-");
}
function journalPath(stateDir, generation) {
  return join12(stateDir, `${STATE_FILE.replace(/\.json$/, "")}.journal-${generation}.jsonl`);
}
async function replayJournal(stateDir, state) {
  let text2;
  try {
    text2 = await readFile2(journalPath(stateDir, state.generation ?? 0), "utf8");
  } catch (error) {
    if (error.code === "ENOENT") return 0;
    throw error;
  }
  let applied = 0;
  for (const line of text2.split("\n")) {
    if (line.trim() === "") continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      break;
    }
    if (!isRecord(entry)) break;
    if (entry.k === "file" && isStr(entry.id)) {
      if (entry.record === null) delete state.files[entry.id];
      else if (looksLikeFileRecord(entry.record) && entry.record.id === entry.id) state.files[entry.id] = entry.record;
      else break;
    } else if (entry.k === "orphans" && Array.isArray(entry.orphans) && entry.orphans.every(looksLikeEpisodeRef)) {
      state.orphans = entry.orphans;
    } else if (entry.k === "meta" && isRecord(entry.lastRun) && isStr(entry.lastRun.startedAt)) {
      state.lastRun = entry.lastRun;
    } else break;
    applied++;
  }
  return applied;
}
async function listJournals(stateDir) {
  const prefix = `${STATE_FILE.replace(/\.json$/, "")}.journal-`;
  let names;
  try {
    names = await readdir3(stateDir);
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith(prefix) && name.endsWith(".jsonl")).map((name) => ({ path: join12(stateDir, name), generation: Number(name.slice(prefix.length, -".jsonl".length)) }));
}
async function retireJournals(stateDir, keep2) {
  for (const { path } of await listJournals(stateDir)) {
    if (keep2) await rename2(path, `${path}.corrupt-${timestampForFileName()}`).catch(() => void 0);
    else await unlink3(path).catch(() => void 0);
  }
}
async function removeOldJournals(stateDir, current) {
  for (const { path, generation } of await listJournals(stateDir)) {
    if (Number.isInteger(generation) && generation < current) await unlink3(path).catch(() => void 0);
  }
}
var JournalAppender;
var init_journal = __esm({
  "src/lib/state/journal.ts"() {
    "use strict";
    init_json();
    init_types2();
    init_validate();
    JournalAppender = class {
      constructor(stateDir) {
        this.stateDir = stateDir;
      }
      stateDir;
      handle;
      openPath;
      async append(state, entries) {
        if (entries.length === 0) return;
        const path = journalPath(this.stateDir, state.generation ?? 0);
        if (this.openPath !== path) {
          await this.close();
          await mkdir3(this.stateDir, { recursive: true, mode: 448 });
          this.handle = await open2(path, "a", 384);
          this.openPath = path;
        }
        await this.handle.write(`${entries.map((e) => JSON.stringify(e)).join("\n")}
`);
        await this.handle.datasync();
      }
      async close() {
        const handle = this.handle;
        this.handle = void 0;
        this.openPath = void 0;
        await handle?.close().catch(() => void 0);
      }
    };
  }
});

// src/lib/state/state.ts
import { mkdir as mkdir4, rename as rename3, stat as stat3 } from "node:fs/promises";
import { join as join13 } from "node:path";
function statePath(stateDir) {
  return join13(stateDir, STATE_FILE);
}
function fileRecordId(source2, relPath) {
  return `${source2}:${relPath}`;
}
function createEmptyState(now = (/* @__PURE__ */ new Date()).toISOString()) {
  return { tool: STATE_TOOL, version: STATE_VERSION, createdAt: now, updatedAt: now, files: emptyFiles(), orphans: [] };
}
async function moveAside(path) {
  const base = `${path}.corrupt-${timestampForFileName()}`;
  for (let n = 0; n < 1e3; n++) {
    const target = n === 0 ? base : `${base}-${n}`;
    try {
      await stat3(target);
      continue;
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
    await rename3(path, target);
    return target;
  }
  throw new Error(`Cannot move damaged state file ${path} aside: too many earlier copies`);
}
async function loadState(stateDir, options2 = {}) {
  const path = statePath(stateDir);
  if (options2.readOnly !== true) await removeStaleTempFiles(path);
  for (let attempt2 = 0; ; attempt2++) {
    let raw;
    let reason;
    try {
      raw = await readJsonFile(path);
      if (raw === void 0) {
        if (options2.readOnly !== true) await retireJournals(stateDir, false);
        return { state: createEmptyState(), fresh: true };
      }
    } catch (error) {
      if (!(error instanceof JsonFileError)) throw error;
      reason = error.bytes === 0 ? "empty file" : `invalid JSON (${error.bytes} bytes): ${error.detail}`;
    }
    if (reason === void 0) {
      const result = validate(raw, path);
      if (result.ok === "conflict") throw result.error;
      if (result.ok) {
        const journalEntries = await replayJournal(stateDir, result.state);
        return { state: result.state, fresh: false, ...journalEntries > 0 ? { journalEntries } : {} };
      }
      reason = result.reason;
    }
    if (options2.readOnly === true) return { state: createEmptyState(), recovered: { reason, corruptPath: path }, fresh: true };
    try {
      const corruptPath = await moveAside(path);
      await retireJournals(stateDir, true);
      return { state: createEmptyState(), recovered: { reason, corruptPath }, fresh: true };
    } catch (error) {
      if (error.code === "ENOENT" && attempt2 === 0) continue;
      throw error;
    }
  }
}
async function saveState(stateDir, state) {
  state.updatedAt = (/* @__PURE__ */ new Date()).toISOString();
  state.generation = Math.max((state.generation ?? 0) + 1, Date.now());
  const text2 = JSON.stringify(state);
  await mkdir4(stateDir, { recursive: true, mode: 448 });
  await writeFileAtomic(statePath(stateDir), text2, { mode: 384 });
  await removeOldJournals(stateDir, state.generation);
}
var init_state = __esm({
  "src/lib/state/state.ts"() {
    "use strict";
    init_fs_atomic();
    init_validate();
    init_journal();
    init_types2();
    init_types2();
    init_journal();
  }
});

// src/lib/sync/errors.ts
var SyncError;
var init_errors3 = __esm({
  "src/lib/sync/errors.ts"() {
    "use strict";
    SyncError = class extends Error {
      constructor(message, options2) {
        super(message, options2);
        this.name = "SyncError";
      }
    };
  }
});

// src/lib/sync/ledger.ts
var Ledger;
var init_ledger = __esm({
  "src/lib/sync/ledger.ts"() {
    "use strict";
    init_state();
    init_errors3();
    Ledger = class {
      constructor(stateDir, state, now, lock, dryRun) {
        this.stateDir = stateDir;
        this.state = state;
        this.now = now;
        this.lock = lock;
        this.dryRun = dryRun;
      }
      stateDir;
      state;
      now;
      lock;
      dryRun;
      saving;
      saveAgain = false;
      buffer = [];
      appender;
      flushing;
      /** Journals changed records and, with `orphans`, the list of parts of deleted files. */
      async journal(records, orphans = false) {
        if (this.dryRun) return;
        this.checkLock();
        const entries = records.map((record) => ({ k: "file", id: record.id, record }));
        if (orphans) entries.push({ k: "orphans", orphans: this.state.orphans });
        await this.append(entries);
      }
      /** A run that changed nothing costs one journal line, not a snapshot. */
      async journalLastRun() {
        if (this.state.lastRun !== void 0) await this.append([{ k: "meta", lastRun: this.state.lastRun }]);
      }
      /** A new snapshot; calls made while one is being written are folded into one more write. */
      async save() {
        if (this.dryRun) return;
        this.checkLock();
        if (this.saving !== void 0) {
          this.saveAgain = true;
          return this.saving;
        }
        this.saving = (async () => {
          do {
            this.saveAgain = false;
            this.state.updatedAt = new Date(this.now()).toISOString();
            await saveState(this.stateDir, this.state);
          } while (this.saveAgain);
        })().finally(() => {
          this.saving = void 0;
        });
        return this.saving;
      }
      async close() {
        await this.appender?.close();
      }
      checkLock() {
        if (this.lock?.lost === true) throw new SyncError("Lost the state lock to another process; stopping without writing.");
      }
      /**
       * Group commit: concurrent lanes' entries share one write + fsync. A caller's promise resolves
       * once a flush that includes its entries is on disk.
       */
      append(entries) {
        if (this.dryRun) return Promise.resolve();
        this.buffer.push(...entries);
        if (this.flushing !== void 0) return this.flushing;
        this.flushing = (async () => {
          while (this.buffer.length > 0) {
            const batch = this.buffer.splice(0);
            this.appender ??= new JournalAppender(this.stateDir);
            await this.appender.append(this.state, batch);
          }
        })().finally(() => {
          this.flushing = void 0;
        });
        return this.flushing;
      }
    };
  }
});

// src/lib/memory/secrets/engine.ts
function countTags(text2, into, sign) {
  if (!text2.includes("[REDACTED:")) return;
  for (const m of text2.matchAll(TAG)) {
    const kind = m[1];
    into.set(kind, (into.get(kind) ?? 0) + sign);
  }
}
function applyRegex(rule, text2, counts) {
  rule.re.lastIndex = 0;
  return text2.replace(rule.re, (...args) => {
    const match = args[0];
    const groups = [];
    for (let i = 1; i < args.length && typeof args[i] !== "number"; i += 1) groups.push(args[i]);
    const replacement = rule.replace ? rule.replace(match, groups) : tag(rule.kind);
    if (replacement === void 0 || replacement === match) return match;
    countTags(replacement, counts, 1);
    countTags(match, counts, -1);
    return replacement;
  });
}
function applyScan(rule, text2, counts) {
  const out = rule.scan(text2);
  if (out !== text2) {
    countTags(out, counts, 1);
    countTags(text2, counts, -1);
  }
  return out;
}
function runRules(rules, text2) {
  const counts = /* @__PURE__ */ new Map();
  let out = text2;
  const lower = text2.toLowerCase();
  for (const rule of rules) {
    if (!rule.hints.some((h) => (h === h.toLowerCase() ? lower : text2).includes(h))) continue;
    out = "scan" in rule ? applyScan(rule, out, counts) : applyRegex(rule, out, counts);
  }
  const result = {};
  let total = 0;
  for (const [kind, n] of counts) {
    if (n <= 0) continue;
    result[kind] = n;
    total += n;
  }
  return { text: out, counts: result, total };
}
var tag, TAG;
var init_engine = __esm({
  "src/lib/memory/secrets/engine.ts"() {
    "use strict";
    tag = (kind) => `[REDACTED:${kind}]`;
    TAG = /\[REDACTED:([a-z0-9-]+)\]/g;
  }
});

// src/lib/memory/secrets/values.ts
function isPlaceholder(value) {
  return PLACEHOLDER.test(value) || ENV_REF.test(value);
}
function isDummy(value) {
  if (DOC_EXAMPLE.test(value) || isJwtIoSample(value)) return true;
  if (value.length >= 8 && new Set(value).size <= 3) return true;
  return false;
}
function unquote(v) {
  const first = v[0];
  if (v.length >= 2 && (first === '"' || first === "'" || first === "`") && v.endsWith(first)) return { inner: v.slice(1, -1), quote: first };
  return { inner: v, quote: "" };
}
function splitTrailingPunctuation(v, prose = true) {
  const m = (prose ? /[)\]}.,:;!?]+$/ : /[)\]},]+$/).exec(v);
  if (m === null || m.index === 0) return { value: v, rest: "" };
  return { value: v.slice(0, m.index), rest: v.slice(m.index) };
}
function isCredentialValue(raw, numericOk) {
  const { inner, quote } = unquote(raw);
  const v = inner.trim();
  if (v === "" || isRedacted(v) || isPlaceholder(v) || isDummy(v)) return false;
  if (quote !== "") {
    if (v.length < 4) return false;
  } else if (v.length < 6) return false;
  if (/^\d+(?:\.\d+)?$/.test(v)) return numericOk;
  if (WORDISH.test(v) && (v.length < 16 || /[_-]/.test(v))) return false;
  if (CODE_REF.test(v) && (v.includes(".") || v.includes("("))) return false;
  if (/^[a-z]+(?: [a-z]+){2,}[.!?]?$/i.test(v) && !/\d/.test(v)) return false;
  return true;
}
function looksRandom(v, minLength = 8) {
  if (v.length < minLength || isPlaceholder(v) || isDummy(v) || isRedacted(v)) return false;
  return /\d/.test(v) || /[a-z]/.test(v) && /[A-Z]/.test(v) || /[^A-Za-z0-9]/.test(v);
}
function isJwtIoSample(value) {
  const payload = /^eyJ[A-Za-z0-9_-]+\.(eyJ[A-Za-z0-9_-]+)\./.exec(value)?.[1];
  if (payload === void 0) return false;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return claims.sub === "1234567890" && claims.name === "John Doe";
  } catch {
    return false;
  }
}
var isRedacted, ENV_REF, PLACEHOLDER, DOC_EXAMPLE, CODE_REF, WORDISH;
var init_values = __esm({
  "src/lib/memory/secrets/values.ts"() {
    "use strict";
    isRedacted = (v) => v.includes("[REDACTED:");
    ENV_REF = /^(?:\$\{[^}]*\}|\$\([^)]*\)|\$[A-Z_][A-Z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\$env:[A-Za-z_][A-Za-z0-9_]*)$/;
    PLACEHOLDER = /^(?:\*+|[x•]{3,}|\.{2,}|…|-+|_+|\?+|<[^>]*>|\{\{[^}]*\}\}|\{[^}]*\}|\[[^\]]*\]|null|none|nil|undefined|true|false|empty|redacted|hidden|masked|changeme|change[_-]?me|change[_-]?this|replace[_-]?me|todo|tbd|secret|password|passwd|pass|pwd|token|apikey|api[_-]?key|key|value|example|sample|dummy|placeholder|test|testing|foo|bar|baz|admin|root|user|username|guest|postgres|mysql|redis|your[_\- ].*|my[_\- ]?(?:secret|token|password|pass|key|api[_\- ]?key).*|insert[_\- ].*|enter[_\- ].*|put[_\- ].*|paste[_\- ].*|process\.env\..*|import\.meta\.env\..*|os\.environ.*|os\.getenv.*|env\(.*|getenv\(.*|secrets\..*|vault:.*|ref\+.*|op:\/\/.*|arn:aws:secretsmanager.*)$/i;
    DOC_EXAMPLE = /EXAMPLE|x{5,}|X{5,}|\*{3}|\.{3}|…|0{12,}|(?:1234567890){2}|abcdefghij|your[_-]?(?:api[_-]?)?(?:key|token|secret)/;
    CODE_REF = /^[A-Za-z_$][A-Za-z_$]*(?:\??\.[A-Za-z_$][A-Za-z_$]*)*(?:\(.*)?$/;
    WORDISH = /^(?:[A-Za-z][a-z]*(?:-[a-z]+)*[.:!?]?|[a-z]+(?:[_-][a-z]+)+)$/;
  }
});

// src/lib/memory/secrets/assignment.ts
function genericKind(key) {
  const k = key.toLowerCase();
  if (/passw|pwd|passphrase|passcode/.test(k)) return "password";
  if (/api[_.\- ]?key|apikey/.test(k)) return "api-key";
  if (/private[_.-]?key|privatekey|signing[_.-]?key/.test(k)) return "private-key";
  if (/token/.test(k)) return "token";
  return "secret";
}
function splitBareValue(raw) {
  const next = /;[A-Za-z][\w ]*=/.exec(raw);
  const head = next === null ? raw : raw.slice(0, next.index);
  const { value, rest } = splitTrailingPunctuation(head, false);
  return { value, rest: rest + raw.slice(head.length) };
}
function genericReplacement(key, raw) {
  if (isPlaceholder(raw) || isPlaceholder(raw.replace(/[)\].,:;!?]+$/, ""))) return void 0;
  const kind = genericKind(key);
  const { inner, quote } = unquote(raw);
  const opened = quote === "" && /^["'`]/.test(raw) ? raw[0] : "";
  const { value, rest } = quote === "" && opened === "" ? splitBareValue(raw) : { value: raw, rest: "" };
  const candidate = opened === "" ? value : raw.slice(1);
  if (PATH.test(quote === "" ? candidate : inner)) return void 0;
  if (!isCredentialValue(candidate, kind === "password")) return void 0;
  return `${quote || opened}${tag(kind)}${quote}${rest}`;
}
function proseSecret(v) {
  if (v.length < 6 || /^[A-Za-z][a-z]+$/.test(v)) return false;
  if (/^\d+$/.test(v)) return v.length >= 4;
  return /\d/.test(v) || /[^A-Za-z0-9]/.test(v) || /[a-z][A-Z]/.test(v);
}
var VALUE, AWS_SECRET, AWS_SESSION, AUTHORIZATION, AUTH_HEADER, BEARER, KEYWORD, NON_SECRET_KEY, PATH, GENERIC_KEY, GENERIC_VALUE, GENERIC, PROSE, ASSIGNMENT_RULES;
var init_assignment = __esm({
  "src/lib/memory/secrets/assignment.ts"() {
    "use strict";
    init_engine();
    init_values();
    VALUE = `("(?:[^"\\\\\\n]|\\\\.)*"|'(?:[^'\\\\\\n]|\\\\.)*'|\`[^\`\\n]*\`|["'][^\\n]*|[^\\s"'\`]+)`;
    AWS_SECRET = {
      kind: "aws-secret-access-key",
      hints: ["secret"],
      re: /((?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?)([A-Za-z0-9/+=]+)/gi,
      replace: (_m, g) => (g[1] ?? "").length < 30 || isDummy(g[1] ?? "") ? void 0 : `${g[0]}${tag("aws-secret-access-key")}`
    };
    AWS_SESSION = {
      kind: "aws-session-token",
      hints: ["session", "security"],
      re: /((?:aws_?session_?token|aws_?security_?token|x-amz-security-token|session_?token)["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?)([A-Za-z0-9/+=]+)/gi,
      replace: (_m, g) => (g[1] ?? "").length < 40 || isDummy(g[1] ?? "") ? void 0 : `${g[0]}${tag("aws-session-token")}`
    };
    AUTHORIZATION = {
      kind: "authorization",
      hints: ["authorization"],
      re: /(\bauthorization["']?[ \t]*[:=][ \t]*["']?)((?:bearer|basic|token|bot|digest|apikey|sso-key|ssws|key|otoken|dsn)[ \t]+)?([^\s"',;`]+)/gi,
      replace: (_m, g) => {
        const value = splitTrailingPunctuation(g[2] ?? "").value;
        if (isRedacted(value) || isPlaceholder(value) || isDummy(value) || value.length < 8) return void 0;
        if (g[1] === void 0 && !(value.length >= 16 && /\d/.test(value))) return void 0;
        return `${g[0]}${g[1] ?? ""}${tag("authorization")}`;
      }
    };
    AUTH_HEADER = {
      kind: "auth-header",
      hints: ["x-", "private-token", "ocp-apim", "dd-"],
      re: /(\b(?:x-api-key|x-auth-key|x-auth-token|x-access-token|private-token|x-vault-token|x-goog-api-key|x-figma-token|x-shopify-access-token|x-postmark-server-token|ocp-apim-subscription-key|x-functions-key|dd-api-key|dd-application-key|x-riot-token)["']?[ \t]*:[ \t]*["']?)([^\s"',;`]+)/gi,
      replace: (_m, g) => {
        const value = splitTrailingPunctuation(g[1] ?? "").value;
        if (!looksRandom(value, 12)) return void 0;
        return `${g[0]}${tag("auth-header")}${(g[1] ?? "").slice(value.length)}`;
      }
    };
    BEARER = {
      kind: "bearer-token",
      hints: ["bearer"],
      re: /(\bbearer[ \t]+)([A-Za-z0-9\-._~+/]+=*)/gi,
      replace: (_m, g) => {
        const v = g[1] ?? "";
        if (v.length < 16 || isDummy(v) || isPlaceholder(v)) return void 0;
        return /\d/.test(v) || v.length >= 40 ? `${g[0]}${tag("bearer-token")}` : void 0;
      }
    };
    KEYWORD = /passw(?:or)?d|passwd|pwd|passphrase|passcode|secret|api[_.\- ]?key|apikey|access[_.-]?key|private[_.-]?key|privatekey|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|auth[_.-]?key|session[_.-]?key|license[_.-]?key|token|credential|[_.-]key$/i;
    NON_SECRET_KEY = /tokeniz|(?:tokens|secrets|passwords|keys|credentials)$|(?:^|[_.\- ])(?:max|min|num|count|total|no|use|has|is|enable|enabled|require|required)[_.\- ]|(?:count|limit|max|min|length|len|size|type|name|names|file|files|path|dir|url|uri|endpoint|expiry|expires|expiresat|expiration|ttl|lifetime|hint|policy|prompt|field|label|header|usage|used|budget|id|ids|reset|rotation|format|ref|keyref|env|var|mode|method|methods|provider|store|source|version|hash|algorithm|alg|prefix|suffix|location|arn|kind|manager|vault|param|parameter|regex|pattern|placeholder|sent|enabled|required|flow|grant|scope|scopes|audience|issuer|mount|volume|template|example|description|ui)$/i;
    PATH = /^(?:~|\.{1,2})?\/[\w.@/-]*$|^[\w.-]+\.(?:json|pem|key|txt|env|yaml|yml|p12|pfx|crt)$/;
    GENERIC_KEY = new RegExp(
      `(?<![A-Za-z0-9_.$-])(?=([A-Za-z_][A-Za-z0-9_.-]*(?: (?:[Kk]ey|KEY|[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]assword|PASSWORD))?))\\1((?:["']\\]?|\\])?\\*{0,2}[ \\t]*(?::=|=>|[:=])(?!=)\\*{0,2}[ \\t]*)`,
      "g"
    );
    GENERIC_VALUE = new RegExp(VALUE, "y");
    GENERIC = {
      kind: "generic",
      hints: ["pass", "pwd", "secret", "key", "token", "credential"],
      scan: (text2) => {
        let out = "";
        let cursor = 0;
        GENERIC_KEY.lastIndex = 0;
        for (let m = GENERIC_KEY.exec(text2); m !== null; m = GENERIC_KEY.exec(text2)) {
          const key = m[1];
          if (!KEYWORD.test(key) || NON_SECRET_KEY.test(key)) continue;
          const valueAt = m.index + m[0].length;
          GENERIC_VALUE.lastIndex = valueAt;
          const raw = GENERIC_VALUE.exec(text2)?.[0];
          if (raw === void 0) continue;
          const replacement = genericReplacement(key, raw);
          if (replacement === void 0) continue;
          out += text2.slice(cursor, valueAt) + replacement;
          cursor = valueAt + raw.length;
          GENERIC_KEY.lastIndex = cursor;
        }
        return cursor === 0 ? text2 : out + text2.slice(cursor);
      }
    };
    PROSE = {
      kind: "prose",
      hints: ["pass", "pwd", "secret", "key", "token", "pin"],
      re: new RegExp(
        "\\b((?:password|passphrase|passcode|passwd|pwd|pin|api key|access key|token|secret)(?:[ \\t]+(?:for|of|on)[ \\t]+[^\\n.:;`\"']{1,60}?)?[ \\t]+(?:(?:is|was|has been)[ \\t]+(?:now[ \\t]+|still[ \\t]+)?(?:changed to|set to|reset to)|changed to|set to|reset to|is now|is still|is|was|became)[ \\t]+(?:now[ \\t]+)?)(`[^`\\n]+`|\"[^\"\\n]+\"|'[^'\\n]+'|[^\\s\"'`]+)",
        "gi"
      ),
      replace: (_m, g) => {
        const lead = g[0] ?? "";
        const raw = g[1] ?? "";
        const { inner, quote } = unquote(raw);
        const { value, rest } = quote === "" ? splitTrailingPunctuation(raw) : { value: inner, rest: "" };
        if (isRedacted(value) || isPlaceholder(value) || isDummy(value)) return void 0;
        if (quote === "" ? !proseSecret(value) : value.length < 4) return void 0;
        const kind = genericKind(lead.split(/[ \t]/)[0] === "api" ? "api key" : lead);
        return `${lead}${quote}${tag(kind)}${quote}${rest}`;
      }
    };
    ASSIGNMENT_RULES = [AWS_SECRET, AWS_SESSION, AUTHORIZATION, AUTH_HEADER, BEARER, GENERIC, PROSE];
  }
});

// src/lib/memory/secrets/command-line.ts
function keepOrTag(prefix, value, kind) {
  if (value.startsWith("-") || isRedacted(value) || !isCredentialValue(value, true)) return void 0;
  const q = /^["']/.test(value) ? value[0] : "";
  return `${prefix}${q}${tag(kind)}${q}`;
}
function programRule(p) {
  const names = p.programs.map((n) => n.replace(/[-]/g, "\\-")).join("|");
  const line = new RegExp(`^[^\\n]*?(?<![\\w-])(?:${names})(?![\\w-])[^\\n]*`, "gm");
  const flag = new RegExp(`${p.flag}${VALUE2}`, "g");
  return {
    kind: "cli-password",
    hints: p.programs,
    scan: (text2) => text2.replace(line, (l) => l.replace(flag, (m, prefix, value) => keepOrTag(prefix, value, "cli-password") ?? m))
  };
}
var VALUE2, PROGRAMS, CURL_USER, OPENSSL_PASS, SMB_USER, KUBECTL_LITERAL, LONG_FLAG, NETRC, COMMAND_LINE_RULES;
var init_command_line = __esm({
  "src/lib/memory/secrets/command-line.ts"() {
    "use strict";
    init_engine();
    init_values();
    VALUE2 = `("[^"\\n]*"|'[^'\\n]*'|[^\\s"'\`]+)`;
    PROGRAMS = [
      { programs: ["mysql", "mysqldump", "mysqladmin", "mysqlimport", "mariadb", "mariadb-dump"], flag: "(\\s-p)" },
      { programs: ["sshpass"], flag: "(\\s-p[ \\t]*)" },
      { programs: ["docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane"], flag: "(\\s(?:-p|--password)(?:[ \\t]+|=))" },
      { programs: ["redis-cli", "valkey-cli"], flag: "(\\s(?:-a|--pass)[ \\t]+)" },
      { programs: ["ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd"], flag: "(\\s-w[ \\t]+)" },
      { programs: ["mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"], flag: "(\\s-p[ \\t]+)" },
      { programs: ["keytool", "jarsigner"], flag: "(\\s-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass|new)[ \\t]+)" }
    ];
    CURL_USER = {
      kind: "cli-password",
      hints: ["curl", "wget"],
      scan: (text2) => text2.replace(
        /^[^\n]*?(?<![\w-])(?:curl|wget)(?![\w-])[^\n]*/gm,
        (l) => l.replace(/(\s(?:-u|--user|--proxy-user|-U)(?:[ \t]*|=))(?:"([^"\n:]*):([^"\n]*)"|'([^'\n:]*):([^'\n]*)'|([^\s"':]*):([^\s"']+))/g, (m, prefix, ...g) => {
          const user = g[0] ?? g[2] ?? g[4] ?? "";
          const pw = g[1] ?? g[3] ?? g[5] ?? "";
          const q = g[0] !== void 0 ? '"' : g[2] !== void 0 ? "'" : "";
          if (/^\d+$/.test(user) && /^\d+$/.test(pw)) return m;
          return keepOrTag(`${prefix}${q}${user}:`, pw, "cli-password")?.concat(q) ?? m;
        })
      )
    };
    OPENSSL_PASS = {
      kind: "cli-password",
      hints: ["pass:"],
      re: new RegExp(`(-pass(?:in|out)?[ \\t]+["']?pass:)([^\\s"']+)`, "g"),
      replace: (m, g) => keepOrTag(g[0] ?? "", g[1] ?? "", "cli-password") ?? m
    };
    SMB_USER = {
      kind: "cli-password",
      hints: ["%"],
      re: /(\s-U[ \t]*[^\s%"']+%)([^\s"']+)/g,
      replace: (m, g) => keepOrTag(g[0] ?? "", g[1] ?? "", "cli-password") ?? m
    };
    KUBECTL_LITERAL = {
      kind: "kubectl-literal",
      hints: ["--from-literal"],
      re: new RegExp(`(--from-literal[ \\t=]+["']?[\\w.-]+=)${VALUE2}`, "g"),
      replace: (m, g) => {
        const v = g[1] ?? "";
        if (isRedacted(v) || /^\$/.test(v)) return void 0;
        return keepOrTag(g[0] ?? "", v, "kubectl-literal") ?? m;
      }
    };
    LONG_FLAG = {
      kind: "cli-token",
      hints: ["--"],
      re: new RegExp(
        `((?<![\\w-])--(?:[a-z0-9]+-)*(token|password|passwd|pass|secret|api-?key|apikey|access-key|secret-key|private-key|credentials?)(?:[ \\t]+|=))${VALUE2}`,
        "gi"
      ),
      replace: (m, g) => keepOrTag(g[0] ?? "", g[2] ?? "", /^pass/i.test(g[1] ?? "") ? "cli-password" : "cli-token") ?? m
    };
    NETRC = {
      kind: "netrc-password",
      hints: ["machine"],
      scan: (text2) => {
        if (!/(?:^|\s)machine[ \t]+\S+[ \t\n]+(?:login|password)\s/.test(text2)) return text2;
        return text2.replace(/((?:^|\s)(?:password|passwd)[ \t]+)(\S+)/g, (m, prefix, v) => keepOrTag(prefix, v, "netrc-password") ?? m);
      }
    };
    COMMAND_LINE_RULES = [
      ...PROGRAMS.map(programRule),
      CURL_USER,
      OPENSSL_PASS,
      SMB_USER,
      KUBECTL_LITERAL,
      LONG_FLAG,
      NETRC
    ];
  }
});

// src/lib/memory/secrets/structured.ts
function redactSecretManifest(doc) {
  const lines = doc.split("\n");
  let dataIndent = -1;
  let entryIndent = -1;
  let blockIndent = -1;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const indent = line.length - line.trimStart().length;
    if (blockIndent >= 0) {
      if (line.trim() === "" || indent > blockIndent) {
        if (line.trim() !== "") lines[i] = `${line.slice(0, indent)}${tag("k8s-secret-data")}`;
        continue;
      }
      blockIndent = -1;
    }
    const data = DATA_KEY.exec(line);
    if (data !== null) {
      dataIndent = data[1].length;
      entryIndent = -1;
      continue;
    }
    if (dataIndent < 0 || line.trim() === "") continue;
    if (indent <= dataIndent) {
      dataIndent = -1;
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry === null || entryIndent >= 0 && indent !== entryIndent) continue;
    entryIndent = indent;
    const value = entry[3].trim();
    if (/^[|>][+-]?\d*$/.test(value)) {
      blockIndent = indent;
      continue;
    }
    const bare = value.replace(/^["']|["']$/g, "");
    if (bare === "" || isRedacted(bare) || isPlaceholder(bare) || isDummy(bare)) continue;
    const quote = /^["']/.test(value) ? value[0] : "";
    lines[i] = `${line.slice(0, line.length - entry[3].length)}${quote}${tag("k8s-secret-data")}${quote}`;
  }
  return lines.join("\n");
}
var GCP_PRIVATE_KEY, PEM_MARKER, PEM_TAIL, PEM_PRIVATE_KEY, KUBECONFIG_KEY, DOC_BOUNDARY, SECRET_KIND, DATA_KEY, ENTRY, K8S_SECRET, AZURE_STORAGE_KEY, AZURE_SAS, AZURE_AD_SECRET, URL_PASSWORD, SLACK_WEBHOOK, DISCORD_WEBHOOK, DOCKER_AUTH, STRUCTURED_FIRST, STRUCTURED_RULES;
var init_structured = __esm({
  "src/lib/memory/secrets/structured.ts"() {
    "use strict";
    init_engine();
    init_values();
    GCP_PRIVATE_KEY = {
      kind: "gcp-private-key",
      hints: ['"private_key"'],
      re: /("private_key"\s*:\s*")((?:[^"\\]|\\.)*)(")/g,
      replace: (_m, g) => g[1] === void 0 || g[1] === "" || isRedacted(g[1]) ? void 0 : `${g[0]}${tag("gcp-private-key")}${g[2]}`
    };
    PEM_MARKER = /-----(BEGIN|END) ([A-Z0-9 ]{0,40})PRIVATE KEY( BLOCK)?-----/g;
    PEM_TAIL = /(?:(?:\r?\n|\\n)(?:(?:Proc-Type|DEK-Info|Comment|Version): [^\n\\]*|[A-Za-z0-9+/=]+))*/y;
    PEM_PRIVATE_KEY = {
      kind: "pem-private-key",
      hints: ["private key"],
      scan: (text2) => {
        const markers = [...text2.matchAll(PEM_MARKER)];
        let out = "";
        let cursor = 0;
        for (let i = 0; i < markers.length; i += 1) {
          const begin = markers[i];
          if (begin[1] !== "BEGIN" || begin.index < cursor) continue;
          const next = markers[i + 1];
          let end;
          if (next !== void 0 && next[1] === "END") {
            end = next.index + next[0].length;
            i += 1;
          } else {
            PEM_TAIL.lastIndex = begin.index + begin[0].length;
            PEM_TAIL.exec(text2);
            end = PEM_TAIL.lastIndex === 0 ? begin.index + begin[0].length : PEM_TAIL.lastIndex;
          }
          out += text2.slice(cursor, begin.index) + tag("pem-private-key");
          cursor = end;
        }
        return cursor === 0 ? text2 : out + text2.slice(cursor);
      }
    };
    KUBECONFIG_KEY = {
      kind: "kubeconfig-client-key",
      hints: ["client-key-data"],
      re: /(client-key-data["']?[ \t]*:[ \t]*["']?)([A-Za-z0-9+/=]+)/g,
      replace: (_m, g) => (g[1] ?? "").length < 16 || isDummy(g[1] ?? "") ? void 0 : `${g[0]}${tag("kubeconfig-client-key")}`
    };
    DOC_BOUNDARY = /^((?:---|```|~~~)[^\n]*)$/m;
    SECRET_KIND = /^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?Secret["']?[ \t]*,?[ \t]*$/m;
    DATA_KEY = /^([ \t]*)(data|stringData):[ \t]*$/;
    ENTRY = /^([ \t]+)(["']?[\w.-]+["']?)[ \t]*:[ \t]*(.*)$/;
    K8S_SECRET = {
      kind: "k8s-secret-data",
      hints: ["secret"],
      scan: (text2) => {
        if (!SECRET_KIND.test(text2)) return text2;
        const parts = text2.split(DOC_BOUNDARY);
        return parts.map((p) => SECRET_KIND.test(p) ? redactSecretManifest(p) : p).join("");
      }
    };
    AZURE_STORAGE_KEY = {
      kind: "azure-storage-key",
      hints: ["accountkey=", "sharedaccesskey="],
      re: /\b(AccountKey|SharedAccessKey)=([^;"'\s]+)/gi,
      replace: (_m, g) => {
        const v = g[1] ?? "";
        return v.length < 10 || isRedacted(v) || isPlaceholder(v) || isDummy(v) ? void 0 : `${g[0]}=${tag("azure-storage-key")}`;
      }
    };
    AZURE_SAS = {
      kind: "azure-sas-signature",
      hints: ["sig="],
      re: /((?<![A-Za-z0-9_-])sig=)([A-Za-z0-9%+/=_-]+)/g,
      replace: (_m, g) => {
        const v = g[1] ?? "";
        return v.length < 20 || isDummy(v) ? void 0 : `${g[0]}${tag("azure-sas-signature")}`;
      }
    };
    AZURE_AD_SECRET = {
      kind: "azure-ad-client-secret",
      hints: ["q~"],
      re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~([A-Za-z0-9_~.-]+)/g,
      replace: (_m, g) => (g[0] ?? "").length < 30 ? void 0 : tag("azure-ad-client-secret")
    };
    URL_PASSWORD = {
      kind: "url-password",
      hints: ["://"],
      re: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:@/?#"'<>`]*):([^\s@/?#"'<>`]+)@(?=[^\s@/?#"'<>])/gi,
      replace: (_m, g) => {
        const pw = g[2] ?? "";
        if (isRedacted(pw) || isPlaceholder(pw) || isDummy(pw) || /^\*+$/.test(pw)) return void 0;
        return `${g[0]}${g[1]}:${tag("url-password")}@`;
      }
    };
    SLACK_WEBHOOK = {
      kind: "slack-webhook",
      hints: ["hooks.slack.com"],
      re: /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers))\/([A-Za-z0-9_/-]+)/g,
      replace: (_m, g) => (g[1] ?? "").length < 8 || isDummy(g[1] ?? "") ? void 0 : `${g[0]}/${tag("slack-webhook")}`
    };
    DISCORD_WEBHOOK = {
      kind: "discord-webhook",
      hints: ["/api/webhooks/"],
      re: /(https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks)\/(\d+\/[A-Za-z0-9_-]+)/g,
      replace: (_m, g) => (g[1] ?? "").length < 30 ? void 0 : `${g[0]}/${tag("discord-webhook")}`
    };
    DOCKER_AUTH = {
      kind: "docker-config-auth",
      hints: ['"auth"'],
      re: /("auth"[ \t]*:[ \t]*")([A-Za-z0-9+/=]+)(")/g,
      replace: (_m, g) => looksRandom(g[1] ?? "", 12) ? `${g[0]}${tag("docker-config-auth")}${g[2]}` : void 0
    };
    STRUCTURED_FIRST = [GCP_PRIVATE_KEY, PEM_PRIVATE_KEY, KUBECONFIG_KEY, K8S_SECRET];
    STRUCTURED_RULES = [URL_PASSWORD, SLACK_WEBHOOK, DISCORD_WEBHOOK, AZURE_STORAGE_KEY, AZURE_SAS, AZURE_AD_SECRET, DOCKER_AUTH];
  }
});

// src/lib/memory/secrets/vendor.ts
function vendorRule(row) {
  return {
    kind: row.kind,
    hints: row.hints,
    re: new RegExp(`${B}(${row.prefix})(${row.body}+)`, `g${row.flags ?? ""}`),
    replace: (match, g) => {
      const body = g[1] ?? "";
      if (body.length < row.min || isRedacted(match) || isDummy(body)) return void 0;
      if (row.check !== void 0 && !row.check(body)) return void 0;
      return tag(row.kind);
    }
  };
}
var B, HEX, hexOnly, mixed, hasDigit, exact, ALNUM, URLSAFE, ROWS, JWT, VENDOR_RULES;
var init_vendor = __esm({
  "src/lib/memory/secrets/vendor.ts"() {
    "use strict";
    init_engine();
    init_values();
    B = "(?<![A-Za-z0-9_-])";
    HEX = /^[0-9a-f]+$/;
    hexOnly = (b) => HEX.test(b);
    mixed = (b) => /\d/.test(b) && /[A-Za-z]/.test(b);
    hasDigit = (b) => /\d/.test(b);
    exact = (...lengths) => (b) => lengths.includes(b.length);
    ALNUM = "[A-Za-z0-9]";
    URLSAFE = "[A-Za-z0-9_-]";
    ROWS = [
      { kind: "aws-access-key-id", prefix: "(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA|A3T[A-Z0-9])", body: "[A-Z0-9]", min: 16, check: exact(16, 17), hints: ["AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "APKA", "A3T"] },
      { kind: "gcp-api-key", prefix: "AIza", body: URLSAFE, min: 35, hints: ["AIza"] },
      { kind: "google-oauth-client-secret", prefix: "GOCSPX-", body: URLSAFE, min: 20, hints: ["GOCSPX-"] },
      { kind: "google-oauth-token", prefix: "(?:ya29\\.|1//0)", body: URLSAFE, min: 20, hints: ["ya29.", "1//0"] },
      { kind: "github-token", prefix: "(?:gh[pousr]_|github_pat_)", body: "[A-Za-z0-9_]", min: 30, hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"] },
      { kind: "gitlab-token", prefix: "(?:gl(?:pat|dt|rt|ptt|ft|cbt|oas|soat|imt|agent|rrt)-|GR1348941)", body: URLSAFE, min: 20, hints: ["glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glcbt-", "gloas-", "glsoat-", "glimt-", "glagent-", "glrrt-", "GR1348941"] },
      { kind: "slack-token", prefix: "(?:xox[abposre]-|xapp-)", body: "[A-Za-z0-9-]", min: 10, check: hasDigit, hints: ["xox", "xapp-"] },
      { kind: "stripe-key", prefix: "(?:sk|rk)_(?:live|test)_", body: ALNUM, min: 10, hints: ["_live_", "_test_"] },
      { kind: "stripe-webhook-secret", prefix: "whsec_", body: "[A-Za-z0-9+/=]", min: 20, hints: ["whsec_"] },
      { kind: "anthropic-key", prefix: "sk-ant-", body: URLSAFE, min: 20, hints: ["sk-ant-"] },
      { kind: "openrouter-key", prefix: "sk-or-v1-", body: "[0-9a-f]", min: 40, hints: ["sk-or-v1-"] },
      { kind: "mapbox-token", prefix: "(?:sk|pk|tk)\\.eyJ", body: "[A-Za-z0-9_.-]", min: 40, hints: [".eyJ"] },
      // OpenAI-style `sk-` keys (OpenAI project/service/admin keys, DeepSeek and other compatible APIs).
      { kind: "openai-key", prefix: "sk-", body: URLSAFE, min: 20, check: hasDigit, hints: ["sk-"] },
      { kind: "perplexity-key", prefix: "pplx-", body: ALNUM, min: 40, hints: ["pplx-"] },
      { kind: "groq-key", prefix: "gsk_", body: ALNUM, min: 40, hints: ["gsk_"] },
      { kind: "xai-key", prefix: "xai-", body: ALNUM, min: 60, hints: ["xai-"] },
      { kind: "replicate-token", prefix: "r8_", body: ALNUM, min: 30, hints: ["r8_"] },
      { kind: "huggingface-token", prefix: "(?:hf_|api_org_)", body: ALNUM, min: 30, hints: ["hf_", "api_org_"] },
      { kind: "npm-token", prefix: "npm_", body: ALNUM, min: 36, hints: ["npm_"] },
      { kind: "pypi-token", prefix: "pypi-Ag", body: URLSAFE, min: 50, hints: ["pypi-Ag"] },
      { kind: "dockerhub-token", prefix: "dckr_(?:pat|oat)_", body: URLSAFE, min: 20, hints: ["dckr_"] },
      { kind: "shopify-token", prefix: "shp(?:at|ca|pa|ss)_", body: "[0-9a-fA-F]", min: 32, hints: ["shpat_", "shpca_", "shppa_", "shpss_"] },
      { kind: "square-token", prefix: "(?:sq0atp-|sq0csp-|EAAA)", body: URLSAFE, min: 22, check: mixed, hints: ["sq0atp-", "sq0csp-", "EAAA"] },
      { kind: "postman-key", prefix: "PMAK-", body: "[0-9a-fA-F-]", min: 50, hints: ["PMAK-"] },
      { kind: "linear-key", prefix: "lin_(?:api|oauth)_", body: ALNUM, min: 40, hints: ["lin_api_", "lin_oauth_"] },
      { kind: "databricks-token", prefix: "dapi", body: "[0-9a-f-]", min: 32, check: (b) => /^[0-9a-f]{32}(?:-\d+)?$/.test(b), hints: ["dapi"] },
      { kind: "grafana-token", prefix: "(?:glsa_|glc_eyJ|eyJrIjoi)", body: "[A-Za-z0-9_=+/-]", min: 32, hints: ["glsa_", "glc_eyJ", "eyJrIjoi"] },
      { kind: "tailscale-key", prefix: "tskey-(?:auth|api|client|scim|webhook)-", body: "[A-Za-z0-9-]", min: 20, check: hasDigit, hints: ["tskey-"] },
      { kind: "vault-token", prefix: "hv[sbr]\\.", body: URLSAFE, min: 20, hints: ["hvs.", "hvb.", "hvr."] },
      // Legacy Vault service tokens: `s.` + 24 characters of mixed case and digits.
      { kind: "vault-token", prefix: "(?<![.])s\\.", body: ALNUM, min: 24, check: (b) => b.length === 24 && /\d/.test(b) && /[a-z]/.test(b) && /[A-Z]/.test(b), hints: ["s."] },
      { kind: "doppler-token", prefix: "dp\\.(?:pt|st|sa|ct|scim|audit)\\.", body: ALNUM, min: 40, hints: ["dp."] },
      { kind: "digitalocean-token", prefix: "do[opr]_v1_", body: "[0-9a-f]", min: 64, hints: ["_v1_"] },
      { kind: "cloudflare-origin-ca-key", prefix: "v1\\.0-", body: "[0-9a-f-]", min: 150, hints: ["v1.0-"] },
      { kind: "newrelic-key", prefix: "(?:NRAK-|NRII-|NRJS-|NRAA-)", body: "[A-Za-z0-9]", min: 19, hints: ["NRAK-", "NRII-", "NRJS-", "NRAA-"] },
      { kind: "sentry-token", prefix: "(?:sntrys_eyJ|sntryu_)", body: "[A-Za-z0-9_=+/-]", min: 40, hints: ["sntrys_eyJ", "sntryu_"] },
      { kind: "atlassian-token", prefix: "(?:ATATT3|ATCTT3|ATBB)", body: "[A-Za-z0-9_=-]", min: 28, check: mixed, hints: ["ATATT3", "ATCTT3", "ATBB"] },
      { kind: "notion-token", prefix: "(?:secret_|ntn_)", body: ALNUM, min: 40, check: mixed, hints: ["secret_", "ntn_"] },
      { kind: "figma-token", prefix: "fig[dou]_", body: URLSAFE, min: 30, hints: ["figd_", "figo_", "figu_"] },
      { kind: "heroku-key", prefix: "HRKU-", body: URLSAFE, min: 20, hints: ["HRKU-"] },
      { kind: "fly-token", prefix: "FlyV1 fm\\d[a-z]?_", body: "[A-Za-z0-9_=+/,-]", min: 40, hints: ["FlyV1 fm"] },
      { kind: "supabase-key", prefix: "(?:sbp_|sb_secret_)", body: URLSAFE, min: 20, hints: ["sbp_", "sb_secret_"] },
      { kind: "netlify-token", prefix: "nfp_", body: ALNUM, min: 30, hints: ["nfp_"] },
      { kind: "pulumi-token", prefix: "pul-", body: "[0-9a-f]", min: 40, hints: ["pul-"] },
      { kind: "terraform-cloud-token", prefix: "[A-Za-z0-9]{14}\\.atlasv1\\.", body: "[A-Za-z0-9_=-]", min: 40, hints: [".atlasv1."] },
      { kind: "buildkite-token", prefix: "bk(?:ua|ct)_", body: "[0-9a-f]", min: 40, hints: ["bkua_", "bkct_"] },
      { kind: "circleci-token", prefix: "CCIPAT_", body: "[A-Za-z0-9_]", min: 40, hints: ["CCIPAT_"] },
      { kind: "langsmith-key", prefix: "lsv2_(?:pt|sk)_", body: "[0-9a-f_]", min: 40, hints: ["lsv2_"] },
      { kind: "contentful-token", prefix: "CFPAT-", body: URLSAFE, min: 40, hints: ["CFPAT-"] },
      { kind: "dynatrace-token", prefix: "dt0[a-z]\\d\\d\\.", body: "[A-Za-z0-9.]", min: 80, hints: ["dt0"] },
      { kind: "prefect-key", prefix: "pnu_", body: ALNUM, min: 36, hints: ["pnu_"] },
      { kind: "readme-key", prefix: "rdme_", body: ALNUM, min: 60, hints: ["rdme_"] },
      { kind: "planetscale-token", prefix: "pscale_(?:tkn|pw|oauth)_", body: "[A-Za-z0-9_.-]", min: 30, hints: ["pscale_"] },
      { kind: "resend-key", prefix: "re_", body: "[A-Za-z0-9_]", min: 30, check: (b) => /\d/.test(b) && /[a-z]/.test(b) && /[A-Z]/.test(b), hints: ["re_"] },
      { kind: "infracost-key", prefix: "ico-", body: ALNUM, min: 32, check: mixed, hints: ["ico-"] },
      { kind: "age-secret-key", prefix: "AGE-SECRET-KEY-1", body: "[A-Z0-9]", min: 50, hints: ["AGE-SECRET-KEY-1"] },
      // 1Password account Secret Key: A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX (the second group is optional in older kits).
      { kind: "onepassword-secret-key", prefix: "A3-", body: "[A-Z0-9-]", min: 30, check: (b) => /^[A-Z0-9]{6}(?:-[A-Z0-9]{5,6}){5,6}$/.test(b), hints: ["A3-"] },
      { kind: "onepassword-service-token", prefix: "ops_eyJ", body: "[A-Za-z0-9_=+/-]", min: 40, hints: ["ops_eyJ"] },
      { kind: "twilio-api-key", prefix: "SK", body: "[0-9a-f]", min: 32, check: exact(32), hints: ["SK"] },
      { kind: "twilio-account-sid", prefix: "AC", body: "[0-9a-f]", min: 32, check: exact(32), hints: ["AC"] },
      { kind: "sendgrid-key", prefix: "SG\\.", body: "[A-Za-z0-9_.-]", min: 40, check: (b) => b.includes("."), hints: ["SG."] },
      { kind: "mailgun-key", prefix: "key-", body: "[0-9a-z]", min: 32, check: (b) => hexOnly(b) && b.length === 32, hints: ["key-"] },
      { kind: "mailchimp-key", prefix: "[0-9a-f]{32}-us", body: "[0-9]", min: 1, check: (b) => b.length <= 2, hints: ["-us"] },
      { kind: "telegram-bot-token", prefix: "\\d{8,10}:AA", body: URLSAFE, min: 30, hints: [":AA"] },
      { kind: "discord-bot-token", prefix: "[MNO][A-Za-z0-9]{23,25}\\.[A-Za-z0-9_-]{6}\\.", body: URLSAFE, min: 27, hints: ["."] }
    ];
    JWT = {
      kind: "jwt",
      hints: ["eyJ"],
      re: new RegExp(`${B}(eyJ[A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]+)\\.?([A-Za-z0-9_-]*)`, "g"),
      replace: (_m, g) => {
        const payload = g[1] ?? "";
        if ((g[0] ?? "").length < 10 || payload.length < 8) return void 0;
        if (isJwtIoSample(_m)) return void 0;
        return tag("jwt");
      }
    };
    VENDOR_RULES = [...ROWS.map(vendorRule), JWT];
  }
});

// src/lib/memory/redact.ts
function redactSecrets(text2) {
  return runRules(RULES, text2);
}
function totalRedactions(byKind) {
  return Object.values(byKind).reduce((n, k) => n + k, 0);
}
function addCounts(into, counts) {
  for (const [kind, n] of Object.entries(counts)) into[kind] = (into[kind] ?? 0) + n;
  return into;
}
function stripPrivateBlocks(text2) {
  if (!/<\/?private\b/i.test(text2)) return { text: text2, count: 0, unclosed: false, warnings: [] };
  const re = /<(\/?)private(?:\s[^<>]*)?>/gi;
  let out = "";
  let cursor = 0;
  let depth = 0;
  let count = 0;
  let m;
  while ((m = re.exec(text2)) !== null) {
    const closing = m[1] === "/";
    if (!closing) {
      if (depth === 0) {
        out += text2.slice(cursor, m.index);
      }
      depth += 1;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0) {
        count += 1;
        cursor = m.index + m[0].length;
      }
    }
  }
  if (depth > 0) {
    count += 1;
    return {
      text: out,
      count,
      unclosed: true,
      warnings: ["a <private> block is not closed with </private>: everything after it was left out"]
    };
  }
  out += text2.slice(cursor);
  return { text: out, count, unclosed: false, warnings: [] };
}
var RULES;
var init_redact = __esm({
  "src/lib/memory/redact.ts"() {
    "use strict";
    init_assignment();
    init_command_line();
    init_engine();
    init_structured();
    init_vendor();
    RULES = [...STRUCTURED_FIRST, ...VENDOR_RULES, ...STRUCTURED_RULES, ...COMMAND_LINE_RULES, ...ASSIGNMENT_RULES];
  }
});

// src/lib/memory/split.ts
function headingCuts(text2) {
  const cuts = [];
  let fence;
  let start = 0;
  while (start < text2.length) {
    let end = text2.indexOf("\n", start);
    if (end === -1) end = text2.length;
    const line = text2.slice(start, end);
    const f = FENCE.exec(line);
    if (f?.[1] !== void 0) {
      const ch = f[1][0];
      if (fence === void 0) fence = ch;
      else if (ch === fence) fence = void 0;
    } else if (fence === void 0 && start > 0 && HEADING.test(line)) cuts.push(start);
    start = end + 1;
  }
  return cuts;
}
function cutsAfter(text2, re) {
  const cuts = [];
  re.lastIndex = 0;
  let m;
  while ((m = re.exec(text2)) !== null) {
    const at = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex += 1;
    if (at > 0 && at < text2.length) cuts.push(at);
  }
  return cuts;
}
function segments(text2, level) {
  let cuts;
  switch (level) {
    case "heading":
      cuts = headingCuts(text2);
      break;
    case "paragraph":
      cuts = cutsAfter(text2, /\n[ \t]*\n(?:[ \t]*\n)*/g);
      break;
    case "line":
      cuts = cutsAfter(text2, /\n/g);
      break;
    case "sentence":
      cuts = cutsAfter(text2, /[.!?;:]["')\]]*[ \t]+/g);
      break;
    case "word":
      cuts = cutsAfter(text2, /[ \t]+/g);
      break;
    default:
      cuts = [];
  }
  const out = [];
  let prev = 0;
  for (const c of cuts) {
    out.push(text2.slice(prev, c));
    prev = c;
  }
  out.push(text2.slice(prev));
  return out;
}
function hardCut(text2, max) {
  const out = [];
  let i = 0;
  while (i < text2.length) {
    let end = Math.min(i + max, text2.length);
    const last = text2.charCodeAt(end - 1);
    if (end < text2.length && end - i > 1 && last >= 55296 && last <= 56319) end -= 1;
    out.push(text2.slice(i, end));
    i = end;
  }
  return out;
}
function atoms(text2, max, levelIndex) {
  if (text2.length <= max) return [text2];
  const level = LEVELS[levelIndex] ?? "hard";
  if (level === "hard") return hardCut(text2, max);
  const segs = segments(text2, level);
  if (segs.length <= 1) return atoms(text2, max, levelIndex + 1);
  return segs.flatMap((seg) => atoms(seg, max, levelIndex + 1));
}
function pack(text2, max, levelIndex) {
  if (text2.length <= max) return [text2];
  const level = LEVELS[levelIndex] ?? "hard";
  if (level === "hard") return hardCut(text2, max);
  const segs = segments(text2, level);
  if (segs.length <= 1) return pack(text2, max, levelIndex + 1);
  const flow = level === "line" || level === "sentence" || level === "word";
  const out = [];
  let current = "";
  const add = (piece) => {
    if (current.length + piece.length > max) {
      if (current !== "") out.push(current);
      current = piece;
    } else current += piece;
  };
  for (const seg of segs) {
    if (seg.length <= max) add(seg);
    else if (flow) for (const piece of atoms(seg, max, levelIndex + 1)) add(piece);
    else {
      if (current !== "") out.push(current);
      current = "";
      out.push(...pack(seg, max, levelIndex + 1));
    }
  }
  if (current !== "") out.push(current);
  return out;
}
function splitRaw(text2, max) {
  const limit = Math.max(2, Math.floor(max));
  return pack(text2, limit, 0);
}
function trimBlock(text2) {
  return text2.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}
function splitMarkdown(text2, max) {
  return splitRaw(text2, max).map(trimBlock).filter((p) => p.trim() !== "");
}
var LEVELS, FENCE, HEADING;
var init_split = __esm({
  "src/lib/memory/split.ts"() {
    "use strict";
    LEVELS = ["heading", "paragraph", "line", "sentence", "word", "hard"];
    FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
    HEADING = /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/;
  }
});

// src/lib/memory/time.ts
function pad(n, width = 2) {
  return String(n).padStart(width, "0");
}
function formatIso(ms) {
  if (!Number.isFinite(ms)) return void 0;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return void 0;
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) return void 0;
  const base = `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const millis = d.getUTCMilliseconds();
  return millis === 0 ? `${base}Z` : `${base}.${pad(millis, 3)}Z`;
}
function parseTime(value) {
  if (value instanceof Date) {
    const iso2 = formatIso(value.getTime());
    return iso2 === void 0 ? { warning: "is not a valid date" } : { iso: iso2 };
  }
  if (typeof value === "number") {
    if (Number.isInteger(value) && value >= 1e9 && value < 1e10) return { iso: formatIso(value * 1e3) };
    if (Number.isInteger(value) && value >= 1e12 && value < 1e13) return { iso: formatIso(value) };
    return { warning: `number ${value} is not a time` };
  }
  if (typeof value !== "string") return { warning: "is not a time" };
  const text2 = value.trim();
  if (text2 === "") return {};
  const m = DATE_TIME.exec(text2);
  if (m === null) return { warning: `cannot read "${text2.slice(0, 60)}" as a time (use ISO-8601, e.g. 2026-01-04T10:30:00Z)` };
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om, utcWord, uSign, uh, um, abbr] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === void 0 ? 0 : Number(h);
  const minute = mi === void 0 ? 0 : Number(mi);
  const second = s === void 0 ? 0 : Math.min(Number(s), 59);
  const millis = frac === void 0 ? 0 : Math.floor(Number(`0.${frac}`) * 1e3);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || hour === 24 && (minute > 0 || second > 0)) {
    return { warning: `"${text2}" is not a valid date/time` };
  }
  let offset = 0;
  let warning;
  if (z !== void 0) offset = 0;
  else if (sign !== void 0) offset = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om ?? 0));
  else if (utcWord !== void 0) offset = (uSign === "-" ? -1 : 1) * (Number(uh) * 60 + Number(um ?? 0));
  else if (abbr !== void 0) {
    const known = ZONE_OFFSETS[abbr.toUpperCase()];
    if (known === void 0) warning = `unknown time zone "${abbr}" in "${text2}"; read as UTC`;
    else offset = known;
  }
  if (Math.abs(offset) > 18 * 60) return { warning: `time zone offset in "${text2}" is out of range` };
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return { warning: `"${text2}" is not a valid date` };
  }
  const iso = formatIso(local - offset * 6e4);
  if (iso === void 0) return { warning: `"${text2}" is out of range` };
  return warning === void 0 ? { iso } : { iso, warning };
}
var ZONE_OFFSETS, DATE_TIME;
var init_time = __esm({
  "src/lib/memory/time.ts"() {
    "use strict";
    ZONE_OFFSETS = {
      UTC: 0,
      UT: 0,
      GMT: 0,
      Z: 0,
      WET: 0,
      WEST: 60,
      BST: 60,
      IST: 330,
      CET: 60,
      CEST: 120,
      MET: 60,
      MEST: 120,
      EET: 120,
      EEST: 180,
      MSK: 180,
      // North America (CST = US Central, not China; AST = Atlantic)
      EST: -300,
      EDT: -240,
      CST: -360,
      CDT: -300,
      MST: -420,
      MDT: -360,
      PST: -480,
      PDT: -420,
      AKST: -540,
      AKDT: -480,
      HST: -600,
      HDT: -540,
      AST: -240,
      ADT: -180,
      NST: -210,
      NDT: -150,
      // South America, Africa
      BRT: -180,
      ART: -180,
      CLT: -240,
      CLST: -180,
      SAST: 120,
      WAT: 60,
      CAT: 120,
      EAT: 180,
      // Asia, Oceania
      GST: 240,
      PKT: 300,
      NPT: 345,
      ICT: 420,
      WIB: 420,
      HKT: 480,
      SGT: 480,
      PHT: 480,
      AWST: 480,
      JST: 540,
      KST: 540,
      ACST: 570,
      ACDT: 630,
      AEST: 600,
      AEDT: 660,
      NZST: 720,
      NZDT: 780
    };
    DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt]|[ \t]+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:[ \t]*(?:([Zz])|([+-])(\d{2}):?(\d{2})?|(?:(UTC|GMT|UT)[ \t]*([+-])(\d{1,2})(?::?(\d{2}))?)|([A-Za-z]{1,5})))?$/;
  }
});

// src/lib/memory/episode.ts
function formatMarker(m) {
  const hash = m.hash.slice(0, MARKER_HASH_CHARS).toLowerCase();
  if (!FILE_ID.test(m.fileId)) throw new TypeError(`formatMarker: fileId must match ${FILE_ID.source}`);
  if (m.origin !== void 0 && !ORIGIN_NAME.test(m.origin)) throw new TypeError(`formatMarker: origin must match ${ORIGIN_NAME.source}`);
  if (!/^[0-9a-f]{12}$/.test(hash)) throw new TypeError("formatMarker: hash must be at least 12 hex characters");
  if (!Number.isInteger(m.part) || !Number.isInteger(m.parts) || m.part < 1 || m.part > m.parts || m.parts > 999999) {
    throw new TypeError("formatMarker: part must be an integer from 1 to parts");
  }
  return `[gms:${m.fileId}:${hash}:${m.part}/${m.parts}${m.origin === void 0 ? "" : `:${m.origin}`}]`;
}
function parseMarker(sourceDescription) {
  if (typeof sourceDescription !== "string" || !sourceDescription.includes("[gms:")) return void 0;
  let found;
  MARKER_RE.lastIndex = 0;
  let m;
  while ((m = MARKER_RE.exec(sourceDescription)) !== null) {
    const part = Number(m[3]);
    const parts = Number(m[4]);
    if (part < 1 || part > parts) continue;
    found = { fileId: m[1] ?? "", hash: m[2] ?? "", part, parts, raw: m[0], ...m[5] === void 0 ? {} : { origin: m[5] } };
  }
  return found;
}
function truncateLabel(text2, max) {
  if (text2.length <= max) return text2;
  if (max <= 1) return "\u2026".slice(0, Math.max(0, max));
  let cut = max - 1;
  const code = text2.charCodeAt(cut - 1);
  if (code >= 55296 && code <= 56319) cut -= 1;
  let head = text2.slice(0, cut);
  if (!/\s/.test(text2.charAt(cut))) {
    const space = head.search(/\s\S*$/);
    if (space >= Math.floor(max / 2)) head = head.slice(0, space);
  }
  return `${head.trimEnd()}\u2026`;
}
function oneLine(text2) {
  return text2.replace(/\s+/g, " ").trim();
}
function scalarLine(value) {
  if (typeof value === "string") return oneLine(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => ["string", "number", "boolean"].includes(typeof v))) {
    return oneLine(value.map(String).join(", "));
  }
  return void 0;
}
function headerLines(doc) {
  const fm = doc.frontmatter;
  const lines = [];
  const add = (label, value) => {
    if (value !== void 0 && value.trim() !== "") lines.push(`${label}: ${oneLine(value)}`);
  };
  if (oneLine(doc.title).length > MAX_NAME_CHARS - 20) add("Title", doc.title);
  add("Type", doc.type);
  if (fm.capture_type !== void 0 && fm.capture_type !== doc.type) add("Capture type", fm.capture_type);
  add("Description", fm.description);
  if (doc.tags.length > 0) add("Tags", doc.tags.join(", "));
  if (doc.time !== void 0) add(TIME_LABEL[doc.timeSource ?? "date"], doc.time);
  if (fm.rating !== void 0) add("Rating", String(fm.rating));
  add("Executor", fm.executor);
  add("Agent completion", fm.agent_completion);
  if (doc.pinned === true) add("Pinned", "yes");
  for (const [key, value] of Object.entries(doc.extra)) {
    const text2 = scalarLine(value);
    if (text2 !== void 0 && text2 !== "" && key.length <= 40 && text2.length <= 300) add(key, text2);
  }
  return lines;
}
function prepareEpisodeContent(doc) {
  const warnings = [];
  const privateBody = stripPrivateBlocks(stripCaptureFooters(doc.body));
  warnings.push(...privateBody.warnings);
  const body = redactSecrets(privateBody.text);
  const privateHeader = stripPrivateBlocks(headerLines(doc).join("\n"));
  const header2 = redactSecrets(privateHeader.text);
  const title = redactSecrets(oneLine(stripPrivateBlocks(doc.title).text));
  return {
    header: header2.text.trim(),
    body: trimBlock(body.text),
    title: title.text || "Untitled memory",
    redactions: body.total + header2.total + title.total,
    redactionsByKind: addCounts(addCounts(addCounts({}, body.counts), header2.counts), title.counts),
    privateBlocks: privateBody.count + privateHeader.count,
    warnings
  };
}
function buildEpisodes(input) {
  const { doc } = input;
  const max = Math.max(MIN_MAX_CHARS, Math.floor(Number.isFinite(input.maxChars) ? input.maxChars : MIN_MAX_CHARS));
  const prepared = prepareEpisodeContent(doc);
  if (prepared.body === "" && (doc.frontmatter.description ?? "").trim() === "") return [];
  let bodies;
  const sep = "\n\n";
  if (prepared.header === "") {
    bodies = splitMarkdown(prepared.body, max);
  } else if (prepared.header.length + sep.length <= max / 2) {
    const budget = max - prepared.header.length - sep.length;
    const chunks = prepared.body === "" ? [] : splitMarkdown(prepared.body, budget);
    bodies = chunks.length === 0 ? [prepared.header] : chunks.map((c) => `${prepared.header}${sep}${c}`);
  } else {
    bodies = splitMarkdown(prepared.body === "" ? prepared.header : `${prepared.header}${sep}${prepared.body}`, max);
  }
  if (bodies.length === 0) return [];
  const parts = bodies.length;
  const referenceTime = doc.time ?? formatIso(input.mtimeMs) ?? formatIso(Date.now());
  const readable = [
    `${input.kind} memory ${input.relPath}`,
    doc.type === void 0 ? void 0 : `type ${oneLine(doc.type)}`,
    doc.tags.length === 0 ? void 0 : `tags ${oneLine(doc.tags.join(", "))}`,
    input.project === void 0 ? void 0 : `project ${oneLine(input.project)}`
  ].filter((s) => s !== void 0).join("; ");
  const readableSafe = redactSecrets(oneLine(readable)).text;
  return bodies.map((body, index) => {
    const part = index + 1;
    const marker = formatMarker({ fileId: input.fileId, hash: input.contentHash, part, parts, origin: input.origin });
    const suffix = parts > 1 ? ` (part ${part}/${parts})` : "";
    const name = `${truncateLabel(prepared.title, MAX_NAME_CHARS - suffix.length)}${suffix}`;
    const description = `${truncateLabel(readableSafe, MAX_SOURCE_DESCRIPTION_CHARS - marker.length - 1)} ${marker}`;
    return {
      name,
      body,
      source: "text",
      sourceDescription: description,
      groupId: input.groupId,
      referenceTime,
      marker,
      part,
      parts,
      redactions: part === 1 ? prepared.redactions : 0,
      redactionsByKind: part === 1 ? prepared.redactionsByKind : {}
    };
  });
}
var MAX_NAME_CHARS, MAX_SOURCE_DESCRIPTION_CHARS, MIN_MAX_CHARS, MARKER_HASH_CHARS, FILE_ID, MARKER_RE, TIME_LABEL;
var init_episode = __esm({
  "src/lib/memory/episode.ts"() {
    "use strict";
    init_footer();
    init_redact();
    init_split();
    init_time();
    init_origin();
    MAX_NAME_CHARS = 200;
    MAX_SOURCE_DESCRIPTION_CHARS = 500;
    MIN_MAX_CHARS = 100;
    MARKER_HASH_CHARS = 12;
    FILE_ID = /^[A-Za-z0-9_-]{1,64}$/;
    MARKER_RE = /\[gms:([A-Za-z0-9_-]{1,64}):([0-9a-f]{12}):(\d{1,6})\/(\d{1,6})(?::([a-z0-9][a-z0-9-]{0,39}))?\]/g;
    TIME_LABEL = { timestamp: "Captured", modified: "Modified", date: "Date", created: "Created" };
  }
});

// src/lib/sync/pace.ts
function paceOf(state, group) {
  const raw = state.groups?.[group];
  if (typeof raw !== "object" || raw === null) return {};
  const pace = {};
  if (isCount2(raw.size)) pace.size = raw.size;
  if (typeof raw.nextListingAt === "number" && Number.isFinite(raw.nextListingAt)) pace.nextListingAt = raw.nextListingAt;
  if (isCount2(raw.backoffMs)) pace.backoffMs = raw.backoffMs;
  if (isSamples(raw.waitsMs)) pace.waitsMs = raw.waitsMs.slice(-SAMPLES);
  if (isSamples(raw.stepsMs)) pace.stepsMs = raw.stepsMs.slice(-SAMPLES);
  if (isSamples(raw.appearMs)) pace.appearMs = raw.appearMs.slice(-SAMPLES);
  if (typeof raw.skewMs === "number" && Number.isFinite(raw.skewMs)) pace.skewMs = raw.skewMs;
  return pace;
}
function listingDue(pace, now) {
  return pace.nextListingAt === void 0 || now >= pace.nextListingAt;
}
function firstCap(pace, ours) {
  const guess = pace.size === void 0 ? Math.max(MIN_LISTING, ours * 2 + 100) : Math.ceil(pace.size * 1.1) + ours + 100;
  return Math.min(MAX_LISTING, guess);
}
function nextCap(cap) {
  return Math.min(MAX_LISTING, cap * LISTING_GROWTH);
}
function skewOf(pace) {
  return Math.min(0, pace.skewMs ?? 0);
}
function patienceMs(pace, confirmMaxAgeMs) {
  const step = median(pace.stepsMs) ?? median(pace.appearMs);
  if (step === void 0) return confirmMaxAgeMs;
  const wait = percentile(pace.waitsMs, 0.9) ?? 0;
  return Math.min(confirmMaxAgeMs, Math.max(MIN_PATIENCE_MS, PATIENCE_FACTOR * (wait + step)));
}
function lastMovement(pace, listing) {
  let newest = 0;
  for (const e of listing.episodes) {
    const t = parseTime2(e.created_at);
    if (t !== void 0 && t > newest) newest = t;
  }
  return newest === 0 ? 0 : newest - skewOf(pace);
}
function nextPace(input) {
  const { previous, listing, now } = input;
  const pace = { ...previous };
  if (listing.complete) pace.size = listing.episodes.length;
  else if (listing.episodes.length > (pace.size ?? 0)) pace.size = listing.episodes.length;
  if (input.sightings.length > 0) {
    const seen = input.sightings.flatMap(({ queuedAt, episode }) => {
      const created = parseTime2(episode.created_at);
      return created === void 0 ? [] : [{ queuedAt, created }];
    });
    for (const { queuedAt, created } of seen) pace.skewMs = Math.min(pace.skewMs ?? 0, created - queuedAt);
    const correction = Math.min(0, pace.skewMs ?? 0);
    pace.waitsMs = keep(pace.waitsMs, seen.map(({ queuedAt, created }) => Math.max(0, created - queuedAt - correction)));
    pace.appearMs = keep(pace.appearMs, input.sightings.map(({ queuedAt }) => Math.max(0, now - queuedAt)));
    if (listing.complete) pace.stepsMs = keep(pace.stepsMs, processingTimes(seen, listing));
  }
  if (input.stillWaiting === 0) {
    delete pace.nextListingAt;
    delete pace.backoffMs;
  } else {
    const base = clamp((median(pace.stepsMs) ?? 2 * MIN_BACKOFF_MS) / 2, MIN_BACKOFF_MS, 3e4);
    const backoff = input.progress || pace.backoffMs === void 0 ? base : Math.min(MAX_BACKOFF_MS, Math.max(base, pace.backoffMs * 2));
    pace.backoffMs = Math.round(backoff);
    pace.nextListingAt = now + pace.backoffMs;
  }
  return pace;
}
function processingTimes(seen, listing) {
  const starts = listing.episodes.map((e) => parseTime2(e.created_at)).filter((t) => t !== void 0).sort((a, b) => a - b);
  const byStart = new Map(seen.map((s) => [s.created, s]));
  const steps = [];
  for (const b of seen) {
    const before = lastBelow(starts, b.created);
    const a = before === void 0 ? void 0 : byStart.get(before);
    if (a === void 0 || a.queuedAt > b.queuedAt) continue;
    const gap = b.created - a.created;
    if (gap > b.queuedAt - a.queuedAt + 1) steps.push(gap);
  }
  return steps;
}
function keep(previous, added) {
  if (added.length === 0) return previous;
  return [...previous ?? [], ...added].slice(-SAMPLES);
}
function parseTime2(iso) {
  if (typeof iso !== "string" || iso === "") return void 0;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : void 0;
}
function lastBelow(sorted, value) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? void 0 : sorted[lo - 1];
}
function median(xs) {
  return percentile(xs, 0.5);
}
function percentile(xs, p) {
  if (xs === void 0 || xs.length === 0) return void 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
function clamp(x, lo, hi) {
  return Math.min(hi, Math.max(lo, x));
}
function isCount2(v) {
  return Number.isInteger(v) && v >= 0;
}
function isSamples(v) {
  return Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x) && x >= 0);
}
var MIN_LISTING, LISTING_GROWTH, MAX_LISTING, SAMPLES, MIN_PATIENCE_MS, MIN_BACKOFF_MS, MAX_BACKOFF_MS, PATIENCE_FACTOR;
var init_pace = __esm({
  "src/lib/sync/pace.ts"() {
    "use strict";
    MIN_LISTING = 200;
    LISTING_GROWTH = 4;
    MAX_LISTING = 2e6;
    SAMPLES = 24;
    MIN_PATIENCE_MS = 1e4;
    MIN_BACKOFF_MS = 250;
    MAX_BACKOFF_MS = 5 * 6e4;
    PATIENCE_FACTOR = 4;
  }
});

// src/lib/sync/reconcile.ts
function reconcile(input) {
  const { state, now } = input;
  const nowIso = new Date(now).toISOString();
  const out = { confirmations: [], located: [], vanished: /* @__PURE__ */ new Set(), duplicates: [], resends: [], drops: [], settled: [], paces: /* @__PURE__ */ new Map() };
  const visible = visibleByMarker(input.listing);
  const complete = (group) => input.listing.get(group)?.complete === true;
  const sightings = /* @__PURE__ */ new Map();
  const uuidNow = /* @__PURE__ */ new Map();
  const uuidOf = (ref) => ref.uuid ?? uuidNow.get(ref);
  const newestVisibleSend = /* @__PURE__ */ new Map();
  const lastProgress = /* @__PURE__ */ new Map();
  const raise = (map, group, iso) => {
    if (iso === void 0) return;
    const t = Date.parse(iso);
    if (t > (map.get(group) ?? 0)) map.set(group, t);
  };
  const quiet = (group, since) => {
    const listed = input.listing.get(group);
    if (listed === void 0 || !listed.complete) return false;
    const pace = paceOf(state, group);
    return now - Math.max(since, lastProgress.get(group) ?? 0, lastMovement(pace, listed)) > patienceMs(pace, input.confirmMaxAgeMs);
  };
  const dropEvidence = (group, since) => {
    if (!complete(group)) return void 0;
    if ((newestVisibleSend.get(group) ?? 0) > since) return "fifo";
    return quiet(group, since) ? "age" : void 0;
  };
  for (const record of Object.values(state.files)) {
    for (const ref of record.episodes) {
      const key = visibleKey(ref.groupId, ref.marker);
      const found = visible.get(key);
      if (found === void 0 || found.length === 0) continue;
      const keep2 = keeper(found, ref, input.sharedOrigins);
      let seen = ref;
      if (ref.uuid !== void 0 && keep2.uuid !== ref.uuid) {
        out.confirmations.push({ record, ref, uuid: keep2.uuid, adopted: false });
        uuidNow.set(ref, keep2.uuid);
        seen = { ...ref, uuid: keep2.uuid };
      } else if (ref.uuid === void 0) {
        const adopted = ref.sentAt === void 0;
        out.confirmations.push({ record, ref, uuid: keep2.uuid, adopted });
        uuidNow.set(ref, keep2.uuid);
        if (!adopted && ref.queuedAt !== void 0) {
          const list = sightings.get(ref.groupId) ?? [];
          list.push({ queuedAt: Date.parse(ref.queuedAt), episode: keep2 });
          sightings.set(ref.groupId, list);
        }
        seen = { ...ref, uuid: keep2.uuid, confirmedAt: nowIso, ...adopted ? { sentAt: nowIso } : {} };
      }
      for (const extra of found) if (extra.uuid !== keep2.uuid) out.duplicates.push({ ...seen, uuid: extra.uuid });
      visible.delete(key);
      raise(lastProgress, ref.groupId, seen.confirmedAt);
      raise(newestVisibleSend, ref.groupId, seen.sentAt);
    }
  }
  const retired = [...Object.values(state.files).flatMap((r) => r.superseded), ...state.orphans];
  for (const ref of retired) {
    if (ref.uuid !== void 0) continue;
    const key = visibleKey(ref.groupId, ref.marker);
    const found = visible.get(key);
    if (found === void 0 || found.length === 0) continue;
    const uuid = found[0].uuid;
    out.located.push({ ref, uuid });
    uuidNow.set(ref, uuid);
    for (const extra of found.slice(1)) out.duplicates.push({ ...ref, uuid: extra.uuid });
    visible.delete(key);
  }
  for (const ref of retired) {
    if (uuidOf(ref) !== void 0) continue;
    if (ref.sentAt === void 0) {
      out.vanished.add(ref);
      continue;
    }
    if (dropEvidence(ref.groupId, Date.parse(ref.queuedAt ?? ref.sentAt)) !== void 0) out.vanished.add(ref);
  }
  if (input.rebuilding) {
    const current = new Map(Object.values(state.files).map((r) => [r.fileId, r]));
    for (const episodes of visible.values()) {
      for (const episode of episodes) {
        const marker = parseMarker(episode.source_description);
        const owner = marker === void 0 ? void 0 : current.get(marker.fileId);
        const ownerOrigin = owner?.episodes[0] === void 0 ? void 0 : parseMarker(owner.episodes[0].marker)?.origin;
        if (owner !== void 0 && marker !== void 0 && marker.origin !== void 0 && marker.origin === ownerOrigin && marker.hash !== owner.hash?.slice(0, marker.hash.length)) {
          out.duplicates.push({ marker: marker.raw, name: episode.name, groupId: episode.group_id, part: marker.part, parts: marker.parts, uuid: episode.uuid, resends: 0 });
        }
      }
    }
  }
  for (const record of Object.values(state.files)) {
    if (record.status === "failed" || record.status === "skipped") continue;
    for (const ref of record.episodes) {
      if (uuidOf(ref) !== void 0 || ref.sentAt === void 0 || ref.queuedAt === void 0) continue;
      const evidence = dropEvidence(ref.groupId, Date.parse(ref.queuedAt));
      if (evidence === void 0) continue;
      if (ref.resends >= input.maxResends) {
        const message = `dropped: the server accepted this episode ${ref.resends + 1} times but never stored it (check the Graphiti server log for "Failed to process episode")`;
        out.drops.push({ record, ref, message });
      } else {
        out.resends.push({ record, ref, evidence });
      }
    }
  }
  for (const record of Object.values(state.files)) {
    for (const ref of record.episodes) {
      if (!unsettledShared(ref, input.sharedOrigins) || !complete(ref.groupId)) continue;
      const confirmed = ref.confirmedAt === void 0 ? now : Date.parse(ref.confirmedAt);
      if (now - confirmed >= patienceMs(paceOf(state, ref.groupId), input.confirmMaxAgeMs)) out.settled.push(ref);
    }
  }
  for (const [group, listed] of input.listing) {
    const judged = /* @__PURE__ */ new Set([...out.vanished, ...out.resends.map((x) => x.ref), ...out.drops.map((x) => x.ref)]);
    const progress = out.confirmations.some((c) => c.ref.groupId === group) || out.located.some((l) => l.ref.groupId === group) || [...judged].some((ref) => ref.groupId === group);
    const settled = new Set(out.settled);
    const stillWaiting = allParts(state).filter((ref) => ref.groupId === group && !judged.has(ref) && (ref.sentAt !== void 0 && uuidOf(ref) === void 0 || unsettledShared(ref, input.sharedOrigins) && !settled.has(ref))).length;
    out.paces.set(group, nextPace({ previous: paceOf(state, group), listing: listed, now, sightings: sightings.get(group) ?? [], stillWaiting, progress }));
  }
  return out;
}
function allParts(state) {
  return [...Object.values(state.files).flatMap((r) => r.status === "failed" || r.status === "skipped" ? r.superseded : [...r.episodes, ...r.superseded]), ...state.orphans];
}
function applyReconciliation(state, r, nowIso) {
  for (const { ref, uuid, adopted } of r.confirmations) {
    ref.uuid = uuid;
    ref.confirmedAt = nowIso;
    if (adopted) ref.sentAt = nowIso;
  }
  for (const { ref, uuid } of r.located) ref.uuid = uuid;
  if (r.vanished.size > 0) {
    for (const record of Object.values(state.files)) if (record.superseded.some((ref) => r.vanished.has(ref))) record.superseded = record.superseded.filter((ref) => !r.vanished.has(ref));
    if (state.orphans.some((ref) => r.vanished.has(ref))) state.orphans = state.orphans.filter((ref) => !r.vanished.has(ref));
  }
  state.orphans.push(...r.duplicates);
  for (const { record, message } of r.drops) {
    record.status = "failed";
    record.lastError = message;
  }
  for (const { ref } of r.resends) {
    ref.resends++;
    delete ref.sentAt;
    delete ref.queuedAt;
  }
  for (const ref of r.settled) ref.settledAt = nowIso;
  if (r.paces.size > 0) {
    state.groups ??= /* @__PURE__ */ Object.create(null);
    for (const [group, pace] of r.paces) state.groups[group] = pace;
  }
}
function keeper(found, ref, sharedOrigins) {
  const origin = parseMarker(ref.marker)?.origin;
  if (origin !== void 0 && sharedOrigins?.has(origin) === true) return found.reduce((a, b) => b.uuid < a.uuid ? b : a);
  return found.find((e) => e.uuid === ref.uuid) ?? found[0];
}
function unsettledShared(ref, sharedOrigins) {
  if (ref.settledAt !== void 0 || ref.confirmedAt === void 0) return false;
  const origin = parseMarker(ref.marker)?.origin;
  return origin !== void 0 && sharedOrigins?.has(origin) === true;
}
function visibleKey(group, marker) {
  return `${group}\0${marker}`;
}
function visibleByMarker(listing) {
  const visible = /* @__PURE__ */ new Map();
  for (const [group, { episodes }] of listing) {
    for (const episode of episodes) {
      const marker = parseMarker(episode.source_description);
      if (marker === void 0) continue;
      const key = visibleKey(group, marker.raw);
      const list = visible.get(key) ?? [];
      list.push(episode);
      visible.set(key, list);
    }
  }
  return visible;
}
var init_reconcile = __esm({
  "src/lib/sync/reconcile.ts"() {
    "use strict";
    init_episode();
    init_pace();
  }
});

// src/lib/sync/types.ts
var ServerHealth;
var init_types3 = __esm({
  "src/lib/sync/types.ts"() {
    "use strict";
    init_errors3();
    ServerHealth = class {
      constructor(logger) {
        this.logger = logger;
      }
      logger;
      reachable = true;
      error;
      markDown(error) {
        if (!this.reachable) return;
        this.reachable = false;
        this.error = error instanceof Error ? error.message : String(error);
        this.logger.warn("server unavailable; work stays pending for the next run", { error: this.error });
      }
    };
  }
});

// src/lib/sync/listing.ts
function waitingMarkers(state, rebuilding, sharedOrigins = /* @__PURE__ */ new Set()) {
  const waiting = /* @__PURE__ */ new Map();
  const want = (ref) => {
    const set = waiting.get(ref.groupId) ?? /* @__PURE__ */ new Set();
    set.add(ref.marker);
    waiting.set(ref.groupId, set);
  };
  const wantListed = (ref) => {
    if (!waiting.has(ref.groupId)) waiting.set(ref.groupId, /* @__PURE__ */ new Set());
  };
  const retired = [...Object.values(state.files).flatMap((r) => r.superseded), ...state.orphans];
  const retiredMarkers = new Set(retired.map((ref) => ref.marker));
  const shared = (ref) => {
    const origin = parseMarker(ref.marker)?.origin;
    return origin !== void 0 && sharedOrigins.has(origin);
  };
  for (const record of Object.values(state.files)) {
    if (record.status === "failed" || record.status === "skipped") continue;
    for (const ref of record.episodes) {
      if (ref.uuid === void 0 && (ref.sentAt !== void 0 || rebuilding || retiredMarkers.has(ref.marker) || shared(ref))) want(ref);
      else if (unsettledShared(ref, sharedOrigins)) wantListed(ref);
    }
  }
  for (const ref of retired) if (ref.uuid === void 0 && ref.sentAt !== void 0) want(ref);
  if (rebuilding) {
    for (const group of groupsInUse(state)) if (!waiting.has(group)) waiting.set(group, /* @__PURE__ */ new Set());
  }
  return waiting;
}
async function fetchListing(ctx, options2) {
  const { state } = ctx;
  const listing = /* @__PURE__ */ new Map();
  for (const [group, markers] of waitingMarkers(state, options2.rebuilding, options2.sharedOrigins)) {
    const pace = paceOf(state, group);
    if (!options2.rebuilding && !options2.ignoreBackoff && !listingDue(pace, ctx.now())) continue;
    try {
      listing.set(group, await listGroup(ctx, group, markers, firstCap(pace, oursIn(state, group))));
    } catch (error) {
      if (error instanceof McpError && !error.retryable && error.kind !== "tool") throw new SyncError(`Graphiti rejected get_episodes: ${error.message}`, { cause: error });
      ctx.server.markDown(error);
      return void 0;
    }
  }
  return listing;
}
async function listGroup(ctx, group, markers, cap) {
  let requests = 0;
  let listed = 0;
  for (; ; ) {
    const episodes = await ctx.graphiti.getEpisodes([group], cap, ctx.options.signal);
    requests++;
    listed += episodes.length;
    const complete = episodes.length < cap;
    if (complete || cap >= MAX_LISTING || allFound(episodes, markers)) {
      if (!complete && cap >= MAX_LISTING) ctx.logger.warn("get_episodes at its safety cap; some episodes may be invisible to confirmation", { group, cap });
      ctx.logger.debug("listed group", { group, cap, episodes: episodes.length, complete, requests });
      return { episodes, complete, requests, listed };
    }
    cap = nextCap(cap);
  }
}
function allFound(episodes, markers) {
  if (markers.size === 0) return false;
  const left = new Set(markers);
  for (const e of episodes) {
    const marker = parseMarker(e.source_description);
    if (marker !== void 0) left.delete(marker.raw);
    if (left.size === 0) return true;
  }
  return false;
}
function oursIn(state, group) {
  let n = 0;
  for (const record of Object.values(state.files)) for (const ref of [...record.episodes, ...record.superseded]) if (ref.groupId === group) n++;
  for (const ref of state.orphans) if (ref.groupId === group) n++;
  return n;
}
function groupsInUse(state) {
  const groups = /* @__PURE__ */ new Set();
  for (const record of Object.values(state.files)) for (const ref of [...record.episodes, ...record.superseded]) groups.add(ref.groupId);
  for (const ref of state.orphans) groups.add(ref.groupId);
  return [...groups].sort();
}
var init_listing = __esm({
  "src/lib/sync/listing.ts"() {
    "use strict";
    init_episode();
    init_errors2();
    init_reconcile();
    init_pace();
    init_types3();
  }
});

// src/lib/memory/loop.ts
function knowledgeAnswerScore(text2) {
  let score = 0;
  for (const marker of KNOWLEDGE_ANSWER_MARKERS) if (marker.test(text2)) score++;
  return score;
}
function detectGraphitiOutput(text2) {
  for (const marker of MARKERS) {
    if (!text2.includes(marker.hint)) continue;
    if (marker.test(text2)) return marker.reason;
  }
  return void 0;
}
var GRAPHITI_TOOL, TOOL_USE_JSON, TOOL_CALL, TOOL_DISPLAY, KNOWLEDGE_ANSWER_MARKERS, MARKERS;
var init_loop = __esm({
  "src/lib/memory/loop.ts"() {
    "use strict";
    init_context_header();
    GRAPHITI_TOOL = "(?:add_memory|add_episode|search_memory_facts|search_memory_nodes|search_nodes|search_facts|get_episodes|delete_episode|delete_entity_edge|get_entity_edge|clear_graph|get_status|add_triplet|build_communities|get_episode_entities|summarize_saga)";
    TOOL_USE_JSON = new RegExp(`"name"\\s*:\\s*"mcp__[A-Za-z0-9_-]+__${GRAPHITI_TOOL}"\\s*,\\s*"(?:input|arguments)"\\s*:\\s*\\{`);
    TOOL_CALL = new RegExp(`mcp__[A-Za-z0-9_-]+__${GRAPHITI_TOOL}\\s*\\(\\s*\\{?\\s*"?[a-z_]+"?\\s*[:=]`);
    TOOL_DISPLAY = new RegExp(`[A-Za-z0-9_-]+ - ${GRAPHITI_TOOL} \\(MCP\\)\\s*\\(\\s*[a-z_]+\\s*:`);
    KNOWLEDGE_ANSWER_MARKERS = [
      /^[^\S\n]*(?:[^\w\s*]+\s*)?\**\s*(?:Knowledge Found|No Knowledge Found)\b/im,
      /\bBased on your knowledge graph\b/i,
      /^[^\S\n]*(?:[^\w\s*]+\s*)?\**\s*Key Entities:?\**\s*:?\s*$/im,
      /^[^\S\n]*(?:[^\w\s*]+\s*)?\**\s*Relationships:?\**\s*:?\s*$/im,
      /^[^\S\n]*[-*]\s+[^\n]{1,120}\s(?:→|->)\s[^\n]{1,80}\s(?:→|->)\s[^\n]{1,120}$/m,
      /^[^\S\n]*(?:[^\w\s*]+\s*)?\**\s*(?:Episodes Containing This Knowledge|Source Episodes|Episodes Found|No Episodes Found|Related Facts):?\**\s*:?/im,
      /^[^\S\n]*\d+\.\s+\*\*[^*\n]{1,120}\*\*\s+\([A-Za-z][^)\n]{0,40}\)/m,
      /^[^\S\n]*(?:[^\w\s*]+\s*)?\**\s*Insights:?\**\s*:?\s*$/im
    ];
    MARKERS = [
      // Our own context block: its header line (context-header.ts), or the HTML comment older versions wrote.
      { reason: "context-block", hint: CONTEXT_HEADER_START, test: (t) => CONTEXT_HEADER_PATTERN.test(t) },
      { reason: "context-block", hint: LEGACY_CONTEXT_MARKER, test: (t) => t.includes(LEGACY_CONTEXT_MARKER) },
      {
        // {"message": "Facts retrieved successfully", "facts": [ … ]} (and nodes/episodes, and the empty replies).
        reason: "graphiti-search-result",
        hint: '"message"',
        test: (t) => /"message"\s*:\s*"(?:(?:Facts|Nodes|Episodes) retrieved successfully|No relevant (?:facts|nodes) found|No episodes found[^"]{0,80})"/.test(t) && /"(?:facts|nodes|episodes)"\s*:\s*\[/.test(t)
      },
      {
        // add_memory's reply.
        reason: "graphiti-queued-reply",
        hint: "queued for processing",
        test: (t) => /Episode '[^\n]{0,500}?' queued for processing in group '[^'\n]{0,200}'/.test(t)
      },
      {
        // Fact / edge objects: a uuid plus an endpoint uuid, both as JSON members with uuid-like values.
        reason: "graphiti-fact-json",
        hint: '_node_uuid"',
        test: (t) => /"(?:source|target)_node_uuid"\s*:\s*"[0-9a-fA-F-]{8,}"/.test(t) && /"uuid"\s*:\s*"[0-9a-fA-F-]{8,}"/.test(t)
      },
      {
        // Tool calls with arguments, as Claude Code transcripts and logs show them, through whatever
        // name the user gave the MCP server (graphiti, madeinoz-knowledge, memory, a plugin's name):
        //   {"name":"mcp__madeinoz-knowledge__search_memory_facts","input":{…}}
        //   mcp__graphiti__add_memory(name: "…", episode_body: "…")
        //   madeinoz-knowledge - search_memory_facts (MCP)(query: "…")
        // Only Graphiti's own tool names count, so another server's tools are not taken for ours.
        reason: "graphiti-tool-call",
        hint: "__",
        test: (t) => TOOL_USE_JSON.test(t) || TOOL_CALL.test(t)
      },
      {
        reason: "graphiti-tool-call",
        hint: "(MCP)",
        test: (t) => TOOL_DISPLAY.test(t)
      },
      {
        // An answer of the PAI Knowledge skill, captured as a note: its sections together (one alone
        // is a note talking about them, see KNOWLEDGE_ANSWER_MARKERS).
        reason: "knowledge-skill-answer",
        hint: ":",
        test: (t) => knowledgeAnswerScore(t) >= 3
      },
      {
        // A bare call with Graphiti's own parameter names: add_memory(name="…", episode_body="…").
        reason: "graphiti-tool-call",
        hint: "(",
        test: (t) => /\b(?:add_memory|add_episode|search_memory_facts|search_memory_nodes|search_nodes|search_facts|get_episodes)\s*\(\s*\{?\s*"?(?:name|episode_body|query|group_ids?|max_facts|max_nodes|max_episodes|source_description)"?\s*[:=]/.test(t)
      }
    ];
  }
});

// node_modules/kind-of/index.js
var require_kind_of = __commonJS({
  "node_modules/kind-of/index.js"(exports2, module2) {
    var toString = Object.prototype.toString;
    module2.exports = function kindOf(val) {
      if (val === void 0) return "undefined";
      if (val === null) return "null";
      var type = typeof val;
      if (type === "boolean") return "boolean";
      if (type === "string") return "string";
      if (type === "number") return "number";
      if (type === "symbol") return "symbol";
      if (type === "function") {
        return isGeneratorFn(val) ? "generatorfunction" : "function";
      }
      if (isArray(val)) return "array";
      if (isBuffer(val)) return "buffer";
      if (isArguments(val)) return "arguments";
      if (isDate(val)) return "date";
      if (isError2(val)) return "error";
      if (isRegexp(val)) return "regexp";
      switch (ctorName(val)) {
        case "Symbol":
          return "symbol";
        case "Promise":
          return "promise";
        // Set, Map, WeakSet, WeakMap
        case "WeakMap":
          return "weakmap";
        case "WeakSet":
          return "weakset";
        case "Map":
          return "map";
        case "Set":
          return "set";
        // 8-bit typed arrays
        case "Int8Array":
          return "int8array";
        case "Uint8Array":
          return "uint8array";
        case "Uint8ClampedArray":
          return "uint8clampedarray";
        // 16-bit typed arrays
        case "Int16Array":
          return "int16array";
        case "Uint16Array":
          return "uint16array";
        // 32-bit typed arrays
        case "Int32Array":
          return "int32array";
        case "Uint32Array":
          return "uint32array";
        case "Float32Array":
          return "float32array";
        case "Float64Array":
          return "float64array";
      }
      if (isGeneratorObj(val)) {
        return "generator";
      }
      type = toString.call(val);
      switch (type) {
        case "[object Object]":
          return "object";
        // iterators
        case "[object Map Iterator]":
          return "mapiterator";
        case "[object Set Iterator]":
          return "setiterator";
        case "[object String Iterator]":
          return "stringiterator";
        case "[object Array Iterator]":
          return "arrayiterator";
      }
      return type.slice(8, -1).toLowerCase().replace(/\s/g, "");
    };
    function ctorName(val) {
      return typeof val.constructor === "function" ? val.constructor.name : null;
    }
    function isArray(val) {
      if (Array.isArray) return Array.isArray(val);
      return val instanceof Array;
    }
    function isError2(val) {
      return val instanceof Error || typeof val.message === "string" && val.constructor && typeof val.constructor.stackTraceLimit === "number";
    }
    function isDate(val) {
      if (val instanceof Date) return true;
      return typeof val.toDateString === "function" && typeof val.getDate === "function" && typeof val.setDate === "function";
    }
    function isRegexp(val) {
      if (val instanceof RegExp) return true;
      return typeof val.flags === "string" && typeof val.ignoreCase === "boolean" && typeof val.multiline === "boolean" && typeof val.global === "boolean";
    }
    function isGeneratorFn(name, val) {
      return ctorName(name) === "GeneratorFunction";
    }
    function isGeneratorObj(val) {
      return typeof val.throw === "function" && typeof val.return === "function" && typeof val.next === "function";
    }
    function isArguments(val) {
      try {
        if (typeof val.length === "number" && typeof val.callee === "function") {
          return true;
        }
      } catch (err) {
        if (err.message.indexOf("callee") !== -1) {
          return true;
        }
      }
      return false;
    }
    function isBuffer(val) {
      if (val.constructor && typeof val.constructor.isBuffer === "function") {
        return val.constructor.isBuffer(val);
      }
      return false;
    }
  }
});

// node_modules/is-extendable/index.js
var require_is_extendable = __commonJS({
  "node_modules/is-extendable/index.js"(exports2, module2) {
    "use strict";
    module2.exports = function isExtendable(val) {
      return typeof val !== "undefined" && val !== null && (typeof val === "object" || typeof val === "function");
    };
  }
});

// node_modules/extend-shallow/index.js
var require_extend_shallow = __commonJS({
  "node_modules/extend-shallow/index.js"(exports2, module2) {
    "use strict";
    var isObject = require_is_extendable();
    module2.exports = function extend(o) {
      if (!isObject(o)) {
        o = {};
      }
      var len = arguments.length;
      for (var i = 1; i < len; i++) {
        var obj = arguments[i];
        if (isObject(obj)) {
          assign(o, obj);
        }
      }
      return o;
    };
    function assign(a, b) {
      for (var key in b) {
        if (hasOwn(b, key)) {
          a[key] = b[key];
        }
      }
    }
    function hasOwn(obj, key) {
      return Object.prototype.hasOwnProperty.call(obj, key);
    }
  }
});

// node_modules/section-matter/index.js
var require_section_matter = __commonJS({
  "node_modules/section-matter/index.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var extend = require_extend_shallow();
    module2.exports = function(input, options2) {
      if (typeof options2 === "function") {
        options2 = { parse: options2 };
      }
      var file = toObject(input);
      var defaults = { section_delimiter: "---", parse: identity };
      var opts = extend({}, defaults, options2);
      var delim = opts.section_delimiter;
      var lines = file.content.split(/\r?\n/);
      var sections = null;
      var section = createSection();
      var content = [];
      var stack = [];
      function initSections(val) {
        file.content = val;
        sections = [];
        content = [];
      }
      function closeSection(val) {
        if (stack.length) {
          section.key = getKey(stack[0], delim);
          section.content = val;
          opts.parse(section, sections);
          sections.push(section);
          section = createSection();
          content = [];
          stack = [];
        }
      }
      for (var i = 0; i < lines.length; i++) {
        var line = lines[i];
        var len = stack.length;
        var ln = line.trim();
        if (isDelimiter(ln, delim)) {
          if (ln.length === 3 && i !== 0) {
            if (len === 0 || len === 2) {
              content.push(line);
              continue;
            }
            stack.push(ln);
            section.data = content.join("\n");
            content = [];
            continue;
          }
          if (sections === null) {
            initSections(content.join("\n"));
          }
          if (len === 2) {
            closeSection(content.join("\n"));
          }
          stack.push(ln);
          continue;
        }
        content.push(line);
      }
      if (sections === null) {
        initSections(content.join("\n"));
      } else {
        closeSection(content.join("\n"));
      }
      file.sections = sections;
      return file;
    };
    function isDelimiter(line, delim) {
      if (line.slice(0, delim.length) !== delim) {
        return false;
      }
      if (line.charAt(delim.length + 1) === delim.slice(-1)) {
        return false;
      }
      return true;
    }
    function toObject(input) {
      if (typeOf(input) !== "object") {
        input = { content: input };
      }
      if (typeof input.content !== "string" && !isBuffer(input.content)) {
        throw new TypeError("expected a buffer or string");
      }
      input.content = input.content.toString();
      input.sections = [];
      return input;
    }
    function getKey(val, delim) {
      return val ? val.slice(delim.length).trim() : "";
    }
    function createSection() {
      return { key: "", data: "", content: "" };
    }
    function identity(val) {
      return val;
    }
    function isBuffer(val) {
      if (val && val.constructor && typeof val.constructor.isBuffer === "function") {
        return val.constructor.isBuffer(val);
      }
      return false;
    }
  }
});

// node_modules/js-yaml/lib/js-yaml/common.js
var require_common = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/common.js"(exports2, module2) {
    "use strict";
    function isNothing(subject) {
      return typeof subject === "undefined" || subject === null;
    }
    function isObject(subject) {
      return typeof subject === "object" && subject !== null;
    }
    function toArray(sequence) {
      if (Array.isArray(sequence)) return sequence;
      else if (isNothing(sequence)) return [];
      return [sequence];
    }
    function extend(target, source2) {
      var index, length, key, sourceKeys;
      if (source2) {
        sourceKeys = Object.keys(source2);
        for (index = 0, length = sourceKeys.length; index < length; index += 1) {
          key = sourceKeys[index];
          target[key] = source2[key];
        }
      }
      return target;
    }
    function repeat(string, count) {
      var result = "", cycle;
      for (cycle = 0; cycle < count; cycle += 1) {
        result += string;
      }
      return result;
    }
    function isNegativeZero(number) {
      return number === 0 && Number.NEGATIVE_INFINITY === 1 / number;
    }
    module2.exports.isNothing = isNothing;
    module2.exports.isObject = isObject;
    module2.exports.toArray = toArray;
    module2.exports.repeat = repeat;
    module2.exports.isNegativeZero = isNegativeZero;
    module2.exports.extend = extend;
  }
});

// node_modules/js-yaml/lib/js-yaml/exception.js
var require_exception = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/exception.js"(exports2, module2) {
    "use strict";
    function YAMLException(reason, mark) {
      Error.call(this);
      this.name = "YAMLException";
      this.reason = reason;
      this.mark = mark;
      this.message = (this.reason || "(unknown reason)") + (this.mark ? " " + this.mark.toString() : "");
      if (Error.captureStackTrace) {
        Error.captureStackTrace(this, this.constructor);
      } else {
        this.stack = new Error().stack || "";
      }
    }
    YAMLException.prototype = Object.create(Error.prototype);
    YAMLException.prototype.constructor = YAMLException;
    YAMLException.prototype.toString = function toString(compact) {
      var result = this.name + ": ";
      result += this.reason || "(unknown reason)";
      if (!compact && this.mark) {
        result += " " + this.mark.toString();
      }
      return result;
    };
    module2.exports = YAMLException;
  }
});

// node_modules/js-yaml/lib/js-yaml/mark.js
var require_mark = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/mark.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    function Mark(name, buffer, position, line, column) {
      this.name = name;
      this.buffer = buffer;
      this.position = position;
      this.line = line;
      this.column = column;
    }
    Mark.prototype.getSnippet = function getSnippet(indent, maxLength) {
      var head, start, tail, end, snippet;
      if (!this.buffer) return null;
      indent = indent || 4;
      maxLength = maxLength || 75;
      head = "";
      start = this.position;
      while (start > 0 && "\0\r\n\x85\u2028\u2029".indexOf(this.buffer.charAt(start - 1)) === -1) {
        start -= 1;
        if (this.position - start > maxLength / 2 - 1) {
          head = " ... ";
          start += 5;
          break;
        }
      }
      tail = "";
      end = this.position;
      while (end < this.buffer.length && "\0\r\n\x85\u2028\u2029".indexOf(this.buffer.charAt(end)) === -1) {
        end += 1;
        if (end - this.position > maxLength / 2 - 1) {
          tail = " ... ";
          end -= 5;
          break;
        }
      }
      snippet = this.buffer.slice(start, end);
      return common.repeat(" ", indent) + head + snippet + tail + "\n" + common.repeat(" ", indent + this.position - start + head.length) + "^";
    };
    Mark.prototype.toString = function toString(compact) {
      var snippet, where = "";
      if (this.name) {
        where += 'in "' + this.name + '" ';
      }
      where += "at line " + (this.line + 1) + ", column " + (this.column + 1);
      if (!compact) {
        snippet = this.getSnippet();
        if (snippet) {
          where += ":\n" + snippet;
        }
      }
      return where;
    };
    module2.exports = Mark;
  }
});

// node_modules/js-yaml/lib/js-yaml/type.js
var require_type = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type.js"(exports2, module2) {
    "use strict";
    var YAMLException = require_exception();
    var TYPE_CONSTRUCTOR_OPTIONS = [
      "kind",
      "resolve",
      "construct",
      "instanceOf",
      "predicate",
      "represent",
      "defaultStyle",
      "styleAliases"
    ];
    var YAML_NODE_KINDS = [
      "scalar",
      "sequence",
      "mapping"
    ];
    function compileStyleAliases(map) {
      var result = {};
      if (map !== null) {
        Object.keys(map).forEach(function(style) {
          map[style].forEach(function(alias) {
            result[String(alias)] = style;
          });
        });
      }
      return result;
    }
    function Type(tag2, options2) {
      options2 = options2 || {};
      Object.keys(options2).forEach(function(name) {
        if (TYPE_CONSTRUCTOR_OPTIONS.indexOf(name) === -1) {
          throw new YAMLException('Unknown option "' + name + '" is met in definition of "' + tag2 + '" YAML type.');
        }
      });
      this.tag = tag2;
      this.kind = options2["kind"] || null;
      this.resolve = options2["resolve"] || function() {
        return true;
      };
      this.construct = options2["construct"] || function(data) {
        return data;
      };
      this.instanceOf = options2["instanceOf"] || null;
      this.predicate = options2["predicate"] || null;
      this.represent = options2["represent"] || null;
      this.defaultStyle = options2["defaultStyle"] || null;
      this.styleAliases = compileStyleAliases(options2["styleAliases"] || null);
      if (YAML_NODE_KINDS.indexOf(this.kind) === -1) {
        throw new YAMLException('Unknown kind "' + this.kind + '" is specified for "' + tag2 + '" YAML type.');
      }
    }
    module2.exports = Type;
  }
});

// node_modules/js-yaml/lib/js-yaml/schema.js
var require_schema = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var YAMLException = require_exception();
    var Type = require_type();
    function compileList(schema, name, result) {
      var exclude = [];
      schema.include.forEach(function(includedSchema) {
        result = compileList(includedSchema, name, result);
      });
      schema[name].forEach(function(currentType) {
        result.forEach(function(previousType, previousIndex) {
          if (previousType.tag === currentType.tag && previousType.kind === currentType.kind) {
            exclude.push(previousIndex);
          }
        });
        result.push(currentType);
      });
      return result.filter(function(type, index) {
        return exclude.indexOf(index) === -1;
      });
    }
    function compileMap() {
      var result = {
        scalar: {},
        sequence: {},
        mapping: {},
        fallback: {}
      }, index, length;
      function collectType(type) {
        result[type.kind][type.tag] = result["fallback"][type.tag] = type;
      }
      for (index = 0, length = arguments.length; index < length; index += 1) {
        arguments[index].forEach(collectType);
      }
      return result;
    }
    function Schema(definition) {
      this.include = definition.include || [];
      this.implicit = definition.implicit || [];
      this.explicit = definition.explicit || [];
      this.implicit.forEach(function(type) {
        if (type.loadKind && type.loadKind !== "scalar") {
          throw new YAMLException("There is a non-scalar type in the implicit list of a schema. Implicit resolving of such types is not supported.");
        }
      });
      this.compiledImplicit = compileList(this, "implicit", []);
      this.compiledExplicit = compileList(this, "explicit", []);
      this.compiledTypeMap = compileMap(this.compiledImplicit, this.compiledExplicit);
    }
    Schema.DEFAULT = null;
    Schema.create = function createSchema() {
      var schemas, types;
      switch (arguments.length) {
        case 1:
          schemas = Schema.DEFAULT;
          types = arguments[0];
          break;
        case 2:
          schemas = arguments[0];
          types = arguments[1];
          break;
        default:
          throw new YAMLException("Wrong number of arguments for Schema.create function");
      }
      schemas = common.toArray(schemas);
      types = common.toArray(types);
      if (!schemas.every(function(schema) {
        return schema instanceof Schema;
      })) {
        throw new YAMLException("Specified list of super schemas (or a single Schema object) contains a non-Schema object.");
      }
      if (!types.every(function(type) {
        return type instanceof Type;
      })) {
        throw new YAMLException("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
      return new Schema({
        include: schemas,
        explicit: types
      });
    };
    module2.exports = Schema;
  }
});

// node_modules/js-yaml/lib/js-yaml/type/str.js
var require_str = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/str.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    module2.exports = new Type("tag:yaml.org,2002:str", {
      kind: "scalar",
      construct: function(data) {
        return data !== null ? data : "";
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/seq.js
var require_seq = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/seq.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    module2.exports = new Type("tag:yaml.org,2002:seq", {
      kind: "sequence",
      construct: function(data) {
        return data !== null ? data : [];
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/map.js
var require_map = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/map.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    module2.exports = new Type("tag:yaml.org,2002:map", {
      kind: "mapping",
      construct: function(data) {
        return data !== null ? data : {};
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/failsafe.js
var require_failsafe = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/failsafe.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      explicit: [
        require_str(),
        require_seq(),
        require_map()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/null.js
var require_null = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/null.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveYamlNull(data) {
      if (data === null) return true;
      var max = data.length;
      return max === 1 && data === "~" || max === 4 && (data === "null" || data === "Null" || data === "NULL");
    }
    function constructYamlNull() {
      return null;
    }
    function isNull(object) {
      return object === null;
    }
    module2.exports = new Type("tag:yaml.org,2002:null", {
      kind: "scalar",
      resolve: resolveYamlNull,
      construct: constructYamlNull,
      predicate: isNull,
      represent: {
        canonical: function() {
          return "~";
        },
        lowercase: function() {
          return "null";
        },
        uppercase: function() {
          return "NULL";
        },
        camelcase: function() {
          return "Null";
        }
      },
      defaultStyle: "lowercase"
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/bool.js
var require_bool = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/bool.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveYamlBoolean(data) {
      if (data === null) return false;
      var max = data.length;
      return max === 4 && (data === "true" || data === "True" || data === "TRUE") || max === 5 && (data === "false" || data === "False" || data === "FALSE");
    }
    function constructYamlBoolean(data) {
      return data === "true" || data === "True" || data === "TRUE";
    }
    function isBoolean(object) {
      return Object.prototype.toString.call(object) === "[object Boolean]";
    }
    module2.exports = new Type("tag:yaml.org,2002:bool", {
      kind: "scalar",
      resolve: resolveYamlBoolean,
      construct: constructYamlBoolean,
      predicate: isBoolean,
      represent: {
        lowercase: function(object) {
          return object ? "true" : "false";
        },
        uppercase: function(object) {
          return object ? "TRUE" : "FALSE";
        },
        camelcase: function(object) {
          return object ? "True" : "False";
        }
      },
      defaultStyle: "lowercase"
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/int.js
var require_int = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/int.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var Type = require_type();
    function isHexCode(c) {
      return 48 <= c && c <= 57 || 65 <= c && c <= 70 || 97 <= c && c <= 102;
    }
    function isOctCode(c) {
      return 48 <= c && c <= 55;
    }
    function isDecCode(c) {
      return 48 <= c && c <= 57;
    }
    function resolveYamlInteger(data) {
      if (data === null) return false;
      var max = data.length, index = 0, hasDigits = false, ch;
      if (!max) return false;
      ch = data[index];
      if (ch === "-" || ch === "+") {
        ch = data[++index];
      }
      if (ch === "0") {
        if (index + 1 === max) return true;
        ch = data[++index];
        if (ch === "b") {
          index++;
          for (; index < max; index++) {
            ch = data[index];
            if (ch === "_") continue;
            if (ch !== "0" && ch !== "1") return false;
            hasDigits = true;
          }
          return hasDigits && ch !== "_";
        }
        if (ch === "x") {
          index++;
          for (; index < max; index++) {
            ch = data[index];
            if (ch === "_") continue;
            if (!isHexCode(data.charCodeAt(index))) return false;
            hasDigits = true;
          }
          return hasDigits && ch !== "_";
        }
        for (; index < max; index++) {
          ch = data[index];
          if (ch === "_") continue;
          if (!isOctCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && ch !== "_";
      }
      if (ch === "_") return false;
      for (; index < max; index++) {
        ch = data[index];
        if (ch === "_") continue;
        if (ch === ":") break;
        if (!isDecCode(data.charCodeAt(index))) {
          return false;
        }
        hasDigits = true;
      }
      if (!hasDigits || ch === "_") return false;
      if (ch !== ":") return true;
      return /^(:[0-5]?[0-9])+$/.test(data.slice(index));
    }
    function constructYamlInteger(data) {
      var value = data, sign = 1, ch, base, digits = [];
      if (value.indexOf("_") !== -1) {
        value = value.replace(/_/g, "");
      }
      ch = value[0];
      if (ch === "-" || ch === "+") {
        if (ch === "-") sign = -1;
        value = value.slice(1);
        ch = value[0];
      }
      if (value === "0") return 0;
      if (ch === "0") {
        if (value[1] === "b") return sign * parseInt(value.slice(2), 2);
        if (value[1] === "x") return sign * parseInt(value, 16);
        return sign * parseInt(value, 8);
      }
      if (value.indexOf(":") !== -1) {
        value.split(":").forEach(function(v) {
          digits.unshift(parseInt(v, 10));
        });
        value = 0;
        base = 1;
        digits.forEach(function(d) {
          value += d * base;
          base *= 60;
        });
        return sign * value;
      }
      return sign * parseInt(value, 10);
    }
    function isInteger(object) {
      return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 === 0 && !common.isNegativeZero(object));
    }
    module2.exports = new Type("tag:yaml.org,2002:int", {
      kind: "scalar",
      resolve: resolveYamlInteger,
      construct: constructYamlInteger,
      predicate: isInteger,
      represent: {
        binary: function(obj) {
          return obj >= 0 ? "0b" + obj.toString(2) : "-0b" + obj.toString(2).slice(1);
        },
        octal: function(obj) {
          return obj >= 0 ? "0" + obj.toString(8) : "-0" + obj.toString(8).slice(1);
        },
        decimal: function(obj) {
          return obj.toString(10);
        },
        /* eslint-disable max-len */
        hexadecimal: function(obj) {
          return obj >= 0 ? "0x" + obj.toString(16).toUpperCase() : "-0x" + obj.toString(16).toUpperCase().slice(1);
        }
      },
      defaultStyle: "decimal",
      styleAliases: {
        binary: [2, "bin"],
        octal: [8, "oct"],
        decimal: [10, "dec"],
        hexadecimal: [16, "hex"]
      }
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/float.js
var require_float = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/float.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var Type = require_type();
    var YAML_FLOAT_PATTERN = new RegExp(
      // 2.5e4, 2.5 and integers
      "^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
    );
    function resolveYamlFloat(data) {
      if (data === null) return false;
      if (!YAML_FLOAT_PATTERN.test(data) || // Quick hack to not allow integers end with `_`
      // Probably should update regexp & check speed
      data[data.length - 1] === "_") {
        return false;
      }
      return true;
    }
    function constructYamlFloat(data) {
      var value, sign, base, digits;
      value = data.replace(/_/g, "").toLowerCase();
      sign = value[0] === "-" ? -1 : 1;
      digits = [];
      if ("+-".indexOf(value[0]) >= 0) {
        value = value.slice(1);
      }
      if (value === ".inf") {
        return sign === 1 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      } else if (value === ".nan") {
        return NaN;
      } else if (value.indexOf(":") >= 0) {
        value.split(":").forEach(function(v) {
          digits.unshift(parseFloat(v, 10));
        });
        value = 0;
        base = 1;
        digits.forEach(function(d) {
          value += d * base;
          base *= 60;
        });
        return sign * value;
      }
      return sign * parseFloat(value, 10);
    }
    var SCIENTIFIC_WITHOUT_DOT = /^[-+]?[0-9]+e/;
    function representYamlFloat(object, style) {
      var res;
      if (isNaN(object)) {
        switch (style) {
          case "lowercase":
            return ".nan";
          case "uppercase":
            return ".NAN";
          case "camelcase":
            return ".NaN";
        }
      } else if (Number.POSITIVE_INFINITY === object) {
        switch (style) {
          case "lowercase":
            return ".inf";
          case "uppercase":
            return ".INF";
          case "camelcase":
            return ".Inf";
        }
      } else if (Number.NEGATIVE_INFINITY === object) {
        switch (style) {
          case "lowercase":
            return "-.inf";
          case "uppercase":
            return "-.INF";
          case "camelcase":
            return "-.Inf";
        }
      } else if (common.isNegativeZero(object)) {
        return "-0.0";
      }
      res = object.toString(10);
      return SCIENTIFIC_WITHOUT_DOT.test(res) ? res.replace("e", ".e") : res;
    }
    function isFloat(object) {
      return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 !== 0 || common.isNegativeZero(object));
    }
    module2.exports = new Type("tag:yaml.org,2002:float", {
      kind: "scalar",
      resolve: resolveYamlFloat,
      construct: constructYamlFloat,
      predicate: isFloat,
      represent: representYamlFloat,
      defaultStyle: "lowercase"
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/json.js
var require_json = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/json.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      include: [
        require_failsafe()
      ],
      implicit: [
        require_null(),
        require_bool(),
        require_int(),
        require_float()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/core.js
var require_core = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/core.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      include: [
        require_json()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/timestamp.js
var require_timestamp = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/timestamp.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var YAML_DATE_REGEXP = new RegExp(
      "^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$"
    );
    var YAML_TIMESTAMP_REGEXP = new RegExp(
      "^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \\t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\\.([0-9]*))?(?:[ \\t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?$"
    );
    function resolveYamlTimestamp(data) {
      if (data === null) return false;
      if (YAML_DATE_REGEXP.exec(data) !== null) return true;
      if (YAML_TIMESTAMP_REGEXP.exec(data) !== null) return true;
      return false;
    }
    function constructYamlTimestamp(data) {
      var match, year, month, day, hour, minute, second, fraction = 0, delta = null, tz_hour, tz_minute, date;
      match = YAML_DATE_REGEXP.exec(data);
      if (match === null) match = YAML_TIMESTAMP_REGEXP.exec(data);
      if (match === null) throw new Error("Date resolve error");
      year = +match[1];
      month = +match[2] - 1;
      day = +match[3];
      if (!match[4]) {
        return new Date(Date.UTC(year, month, day));
      }
      hour = +match[4];
      minute = +match[5];
      second = +match[6];
      if (match[7]) {
        fraction = match[7].slice(0, 3);
        while (fraction.length < 3) {
          fraction += "0";
        }
        fraction = +fraction;
      }
      if (match[9]) {
        tz_hour = +match[10];
        tz_minute = +(match[11] || 0);
        delta = (tz_hour * 60 + tz_minute) * 6e4;
        if (match[9] === "-") delta = -delta;
      }
      date = new Date(Date.UTC(year, month, day, hour, minute, second, fraction));
      if (delta) date.setTime(date.getTime() - delta);
      return date;
    }
    function representYamlTimestamp(object) {
      return object.toISOString();
    }
    module2.exports = new Type("tag:yaml.org,2002:timestamp", {
      kind: "scalar",
      resolve: resolveYamlTimestamp,
      construct: constructYamlTimestamp,
      instanceOf: Date,
      represent: representYamlTimestamp
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/merge.js
var require_merge = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/merge.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveYamlMerge(data) {
      return data === "<<" || data === null;
    }
    module2.exports = new Type("tag:yaml.org,2002:merge", {
      kind: "scalar",
      resolve: resolveYamlMerge
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/binary.js
var require_binary = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/binary.js"(exports2, module2) {
    "use strict";
    var NodeBuffer;
    try {
      _require = __require;
      NodeBuffer = _require("buffer").Buffer;
    } catch (__) {
    }
    var _require;
    var Type = require_type();
    var BASE64_MAP = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r";
    function resolveYamlBinary(data) {
      if (data === null) return false;
      var code, idx, bitlen = 0, max = data.length, map = BASE64_MAP;
      for (idx = 0; idx < max; idx++) {
        code = map.indexOf(data.charAt(idx));
        if (code > 64) continue;
        if (code < 0) return false;
        bitlen += 6;
      }
      return bitlen % 8 === 0;
    }
    function constructYamlBinary(data) {
      var idx, tailbits, input = data.replace(/[\r\n=]/g, ""), max = input.length, map = BASE64_MAP, bits = 0, result = [];
      for (idx = 0; idx < max; idx++) {
        if (idx % 4 === 0 && idx) {
          result.push(bits >> 16 & 255);
          result.push(bits >> 8 & 255);
          result.push(bits & 255);
        }
        bits = bits << 6 | map.indexOf(input.charAt(idx));
      }
      tailbits = max % 4 * 6;
      if (tailbits === 0) {
        result.push(bits >> 16 & 255);
        result.push(bits >> 8 & 255);
        result.push(bits & 255);
      } else if (tailbits === 18) {
        result.push(bits >> 10 & 255);
        result.push(bits >> 2 & 255);
      } else if (tailbits === 12) {
        result.push(bits >> 4 & 255);
      }
      if (NodeBuffer) {
        return NodeBuffer.from ? NodeBuffer.from(result) : new NodeBuffer(result);
      }
      return result;
    }
    function representYamlBinary(object) {
      var result = "", bits = 0, idx, tail, max = object.length, map = BASE64_MAP;
      for (idx = 0; idx < max; idx++) {
        if (idx % 3 === 0 && idx) {
          result += map[bits >> 18 & 63];
          result += map[bits >> 12 & 63];
          result += map[bits >> 6 & 63];
          result += map[bits & 63];
        }
        bits = (bits << 8) + object[idx];
      }
      tail = max % 3;
      if (tail === 0) {
        result += map[bits >> 18 & 63];
        result += map[bits >> 12 & 63];
        result += map[bits >> 6 & 63];
        result += map[bits & 63];
      } else if (tail === 2) {
        result += map[bits >> 10 & 63];
        result += map[bits >> 4 & 63];
        result += map[bits << 2 & 63];
        result += map[64];
      } else if (tail === 1) {
        result += map[bits >> 2 & 63];
        result += map[bits << 4 & 63];
        result += map[64];
        result += map[64];
      }
      return result;
    }
    function isBinary(object) {
      return NodeBuffer && NodeBuffer.isBuffer(object);
    }
    module2.exports = new Type("tag:yaml.org,2002:binary", {
      kind: "scalar",
      resolve: resolveYamlBinary,
      construct: constructYamlBinary,
      predicate: isBinary,
      represent: representYamlBinary
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/omap.js
var require_omap = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/omap.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    var _toString = Object.prototype.toString;
    function resolveYamlOmap(data) {
      if (data === null) return true;
      var objectKeys = {}, index, length, pair, pairKey, pairHasKey, object = data;
      for (index = 0, length = object.length; index < length; index += 1) {
        pair = object[index];
        pairHasKey = false;
        if (_toString.call(pair) !== "[object Object]") return false;
        for (pairKey in pair) {
          if (_hasOwnProperty.call(pair, pairKey)) {
            if (!pairHasKey) pairHasKey = true;
            else return false;
          }
        }
        if (!pairHasKey) return false;
        if (_hasOwnProperty.call(objectKeys, pairKey)) return false;
        Object.defineProperty(objectKeys, pairKey, { value: true });
      }
      return true;
    }
    function constructYamlOmap(data) {
      return data !== null ? data : [];
    }
    module2.exports = new Type("tag:yaml.org,2002:omap", {
      kind: "sequence",
      resolve: resolveYamlOmap,
      construct: constructYamlOmap
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/pairs.js
var require_pairs = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/pairs.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var _toString = Object.prototype.toString;
    function resolveYamlPairs(data) {
      if (data === null) return true;
      var index, length, pair, keys, result, object = data;
      result = new Array(object.length);
      for (index = 0, length = object.length; index < length; index += 1) {
        pair = object[index];
        if (_toString.call(pair) !== "[object Object]") return false;
        keys = Object.keys(pair);
        if (keys.length !== 1) return false;
        result[index] = [keys[0], pair[keys[0]]];
      }
      return true;
    }
    function constructYamlPairs(data) {
      if (data === null) return [];
      var index, length, pair, keys, result, object = data;
      result = new Array(object.length);
      for (index = 0, length = object.length; index < length; index += 1) {
        pair = object[index];
        keys = Object.keys(pair);
        result[index] = [keys[0], pair[keys[0]]];
      }
      return result;
    }
    module2.exports = new Type("tag:yaml.org,2002:pairs", {
      kind: "sequence",
      resolve: resolveYamlPairs,
      construct: constructYamlPairs
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/set.js
var require_set = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/set.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    function resolveYamlSet(data) {
      if (data === null) return true;
      var key, object = data;
      for (key in object) {
        if (_hasOwnProperty.call(object, key)) {
          if (object[key] !== null) return false;
        }
      }
      return true;
    }
    function constructYamlSet(data) {
      return data !== null ? data : {};
    }
    module2.exports = new Type("tag:yaml.org,2002:set", {
      kind: "mapping",
      resolve: resolveYamlSet,
      construct: constructYamlSet
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/default_safe.js
var require_default_safe = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/default_safe.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = new Schema({
      include: [
        require_core()
      ],
      implicit: [
        require_timestamp(),
        require_merge()
      ],
      explicit: [
        require_binary(),
        require_omap(),
        require_pairs(),
        require_set()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/js/undefined.js
var require_undefined = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/js/undefined.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveJavascriptUndefined() {
      return true;
    }
    function constructJavascriptUndefined() {
      return void 0;
    }
    function representJavascriptUndefined() {
      return "";
    }
    function isUndefined(object) {
      return typeof object === "undefined";
    }
    module2.exports = new Type("tag:yaml.org,2002:js/undefined", {
      kind: "scalar",
      resolve: resolveJavascriptUndefined,
      construct: constructJavascriptUndefined,
      predicate: isUndefined,
      represent: representJavascriptUndefined
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/js/regexp.js
var require_regexp = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/js/regexp.js"(exports2, module2) {
    "use strict";
    var Type = require_type();
    function resolveJavascriptRegExp(data) {
      if (data === null) return false;
      if (data.length === 0) return false;
      var regexp = data, tail = /\/([gim]*)$/.exec(data), modifiers = "";
      if (regexp[0] === "/") {
        if (tail) modifiers = tail[1];
        if (modifiers.length > 3) return false;
        if (regexp[regexp.length - modifiers.length - 1] !== "/") return false;
      }
      return true;
    }
    function constructJavascriptRegExp(data) {
      var regexp = data, tail = /\/([gim]*)$/.exec(data), modifiers = "";
      if (regexp[0] === "/") {
        if (tail) modifiers = tail[1];
        regexp = regexp.slice(1, regexp.length - modifiers.length - 1);
      }
      return new RegExp(regexp, modifiers);
    }
    function representJavascriptRegExp(object) {
      var result = "/" + object.source + "/";
      if (object.global) result += "g";
      if (object.multiline) result += "m";
      if (object.ignoreCase) result += "i";
      return result;
    }
    function isRegExp(object) {
      return Object.prototype.toString.call(object) === "[object RegExp]";
    }
    module2.exports = new Type("tag:yaml.org,2002:js/regexp", {
      kind: "scalar",
      resolve: resolveJavascriptRegExp,
      construct: constructJavascriptRegExp,
      predicate: isRegExp,
      represent: representJavascriptRegExp
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/type/js/function.js
var require_function = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/type/js/function.js"(exports2, module2) {
    "use strict";
    var esprima;
    try {
      _require = __require;
      esprima = _require("esprima");
    } catch (_) {
      if (typeof window !== "undefined") esprima = window.esprima;
    }
    var _require;
    var Type = require_type();
    function resolveJavascriptFunction(data) {
      if (data === null) return false;
      try {
        var source2 = "(" + data + ")", ast = esprima.parse(source2, { range: true });
        if (ast.type !== "Program" || ast.body.length !== 1 || ast.body[0].type !== "ExpressionStatement" || ast.body[0].expression.type !== "ArrowFunctionExpression" && ast.body[0].expression.type !== "FunctionExpression") {
          return false;
        }
        return true;
      } catch (err) {
        return false;
      }
    }
    function constructJavascriptFunction(data) {
      var source2 = "(" + data + ")", ast = esprima.parse(source2, { range: true }), params = [], body;
      if (ast.type !== "Program" || ast.body.length !== 1 || ast.body[0].type !== "ExpressionStatement" || ast.body[0].expression.type !== "ArrowFunctionExpression" && ast.body[0].expression.type !== "FunctionExpression") {
        throw new Error("Failed to resolve function");
      }
      ast.body[0].expression.params.forEach(function(param) {
        params.push(param.name);
      });
      body = ast.body[0].expression.body.range;
      if (ast.body[0].expression.body.type === "BlockStatement") {
        return new Function(params, source2.slice(body[0] + 1, body[1] - 1));
      }
      return new Function(params, "return " + source2.slice(body[0], body[1]));
    }
    function representJavascriptFunction(object) {
      return object.toString();
    }
    function isFunction(object) {
      return Object.prototype.toString.call(object) === "[object Function]";
    }
    module2.exports = new Type("tag:yaml.org,2002:js/function", {
      kind: "scalar",
      resolve: resolveJavascriptFunction,
      construct: constructJavascriptFunction,
      predicate: isFunction,
      represent: representJavascriptFunction
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/schema/default_full.js
var require_default_full = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/schema/default_full.js"(exports2, module2) {
    "use strict";
    var Schema = require_schema();
    module2.exports = Schema.DEFAULT = new Schema({
      include: [
        require_default_safe()
      ],
      explicit: [
        require_undefined(),
        require_regexp(),
        require_function()
      ]
    });
  }
});

// node_modules/js-yaml/lib/js-yaml/loader.js
var require_loader = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/loader.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var YAMLException = require_exception();
    var Mark = require_mark();
    var DEFAULT_SAFE_SCHEMA = require_default_safe();
    var DEFAULT_FULL_SCHEMA = require_default_full();
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    var CONTEXT_FLOW_IN = 1;
    var CONTEXT_FLOW_OUT = 2;
    var CONTEXT_BLOCK_IN = 3;
    var CONTEXT_BLOCK_OUT = 4;
    var CHOMPING_CLIP = 1;
    var CHOMPING_STRIP = 2;
    var CHOMPING_KEEP = 3;
    var PATTERN_NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
    var PATTERN_NON_ASCII_LINE_BREAKS = /[\x85\u2028\u2029]/;
    var PATTERN_FLOW_INDICATORS = /[,\[\]\{\}]/;
    var PATTERN_TAG_HANDLE = /^(?:!|!!|![a-z\-]+!)$/i;
    var PATTERN_TAG_URI = /^(?:!|[^,\[\]\{\}])(?:%[0-9a-f]{2}|[0-9a-z\-#;\/\?:@&=\+\$,_\.!~\*'\(\)\[\]])*$/i;
    function _class(obj) {
      return Object.prototype.toString.call(obj);
    }
    function is_EOL(c) {
      return c === 10 || c === 13;
    }
    function is_WHITE_SPACE(c) {
      return c === 9 || c === 32;
    }
    function is_WS_OR_EOL(c) {
      return c === 9 || c === 32 || c === 10 || c === 13;
    }
    function is_FLOW_INDICATOR(c) {
      return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
    }
    function fromHexCode(c) {
      var lc;
      if (48 <= c && c <= 57) {
        return c - 48;
      }
      lc = c | 32;
      if (97 <= lc && lc <= 102) {
        return lc - 97 + 10;
      }
      return -1;
    }
    function escapedHexLen(c) {
      if (c === 120) {
        return 2;
      }
      if (c === 117) {
        return 4;
      }
      if (c === 85) {
        return 8;
      }
      return 0;
    }
    function fromDecimalCode(c) {
      if (48 <= c && c <= 57) {
        return c - 48;
      }
      return -1;
    }
    function simpleEscapeSequence(c) {
      return c === 48 ? "\0" : c === 97 ? "\x07" : c === 98 ? "\b" : c === 116 ? "	" : c === 9 ? "	" : c === 110 ? "\n" : c === 118 ? "\v" : c === 102 ? "\f" : c === 114 ? "\r" : c === 101 ? "\x1B" : c === 32 ? " " : c === 34 ? '"' : c === 47 ? "/" : c === 92 ? "\\" : c === 78 ? "\x85" : c === 95 ? "\xA0" : c === 76 ? "\u2028" : c === 80 ? "\u2029" : "";
    }
    function charFromCodepoint(c) {
      if (c <= 65535) {
        return String.fromCharCode(c);
      }
      return String.fromCharCode(
        (c - 65536 >> 10) + 55296,
        (c - 65536 & 1023) + 56320
      );
    }
    function setProperty(object, key, value) {
      if (key === "__proto__") {
        Object.defineProperty(object, key, {
          configurable: true,
          enumerable: true,
          writable: true,
          value
        });
      } else {
        object[key] = value;
      }
    }
    var simpleEscapeCheck = new Array(256);
    var simpleEscapeMap = new Array(256);
    for (i = 0; i < 256; i++) {
      simpleEscapeCheck[i] = simpleEscapeSequence(i) ? 1 : 0;
      simpleEscapeMap[i] = simpleEscapeSequence(i);
    }
    var i;
    function State(input, options2) {
      this.input = input;
      this.filename = options2["filename"] || null;
      this.schema = options2["schema"] || DEFAULT_FULL_SCHEMA;
      this.onWarning = options2["onWarning"] || null;
      this.legacy = options2["legacy"] || false;
      this.json = options2["json"] || false;
      this.listener = options2["listener"] || null;
      this.maxTotalMergeKeys = typeof options2["maxTotalMergeKeys"] === "number" ? options2["maxTotalMergeKeys"] : 1e4;
      this.implicitTypes = this.schema.compiledImplicit;
      this.typeMap = this.schema.compiledTypeMap;
      this.length = input.length;
      this.position = 0;
      this.line = 0;
      this.lineStart = 0;
      this.lineIndent = 0;
      this.totalMergeKeys = 0;
      this.documents = [];
    }
    function generateError(state, message) {
      return new YAMLException(
        message,
        new Mark(state.filename, state.input, state.position, state.line, state.position - state.lineStart)
      );
    }
    function throwError(state, message) {
      throw generateError(state, message);
    }
    function throwWarning(state, message) {
      if (state.onWarning) {
        state.onWarning.call(null, generateError(state, message));
      }
    }
    var directiveHandlers = {
      YAML: function handleYamlDirective(state, name, args) {
        var match, major, minor;
        if (state.version !== null) {
          throwError(state, "duplication of %YAML directive");
        }
        if (args.length !== 1) {
          throwError(state, "YAML directive accepts exactly one argument");
        }
        match = /^([0-9]+)\.([0-9]+)$/.exec(args[0]);
        if (match === null) {
          throwError(state, "ill-formed argument of the YAML directive");
        }
        major = parseInt(match[1], 10);
        minor = parseInt(match[2], 10);
        if (major !== 1) {
          throwError(state, "unacceptable YAML version of the document");
        }
        state.version = args[0];
        state.checkLineBreaks = minor < 2;
        if (minor !== 1 && minor !== 2) {
          throwWarning(state, "unsupported YAML version of the document");
        }
      },
      TAG: function handleTagDirective(state, name, args) {
        var handle, prefix;
        if (args.length !== 2) {
          throwError(state, "TAG directive accepts exactly two arguments");
        }
        handle = args[0];
        prefix = args[1];
        if (!PATTERN_TAG_HANDLE.test(handle)) {
          throwError(state, "ill-formed tag handle (first argument) of the TAG directive");
        }
        if (_hasOwnProperty.call(state.tagMap, handle)) {
          throwError(state, 'there is a previously declared suffix for "' + handle + '" tag handle');
        }
        if (!PATTERN_TAG_URI.test(prefix)) {
          throwError(state, "ill-formed tag prefix (second argument) of the TAG directive");
        }
        state.tagMap[handle] = prefix;
      }
    };
    function captureSegment(state, start, end, checkJson) {
      var _position, _length, _character, _result;
      if (start < end) {
        _result = state.input.slice(start, end);
        if (checkJson) {
          for (_position = 0, _length = _result.length; _position < _length; _position += 1) {
            _character = _result.charCodeAt(_position);
            if (!(_character === 9 || 32 <= _character && _character <= 1114111)) {
              throwError(state, "expected valid JSON character");
            }
          }
        } else if (PATTERN_NON_PRINTABLE.test(_result)) {
          throwError(state, "the stream contains non-printable characters");
        }
        state.result += _result;
      }
    }
    function chargeMergeWork(state) {
      state.totalMergeKeys += 1;
      if (state.maxTotalMergeKeys !== -1 && state.totalMergeKeys > state.maxTotalMergeKeys) {
        throwError(state, "merge keys exceeded maxTotalMergeKeys (" + state.maxTotalMergeKeys + ")");
      }
    }
    function mergeMappings(state, destination, source2, overridableKeys) {
      var sourceKeys, key, index, quantity;
      if (!common.isObject(source2)) {
        throwError(state, "cannot merge mappings; the provided source object is unacceptable");
      }
      chargeMergeWork(state);
      sourceKeys = Object.keys(source2);
      for (index = 0, quantity = sourceKeys.length; index < quantity; index += 1) {
        key = sourceKeys[index];
        chargeMergeWork(state);
        if (!_hasOwnProperty.call(destination, key)) {
          setProperty(destination, key, source2[key]);
          overridableKeys[key] = true;
        }
      }
    }
    function storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, startLine, startPos) {
      var index, quantity;
      if (Array.isArray(keyNode)) {
        keyNode = Array.prototype.slice.call(keyNode);
        for (index = 0, quantity = keyNode.length; index < quantity; index += 1) {
          if (Array.isArray(keyNode[index])) {
            throwError(state, "nested arrays are not supported inside keys");
          }
          if (typeof keyNode === "object" && _class(keyNode[index]) === "[object Object]") {
            keyNode[index] = "[object Object]";
          }
        }
      }
      if (typeof keyNode === "object" && _class(keyNode) === "[object Object]") {
        keyNode = "[object Object]";
      }
      keyNode = String(keyNode);
      if (_result === null) {
        _result = {};
      }
      if (keyTag === "tag:yaml.org,2002:merge") {
        if (Array.isArray(valueNode)) {
          if (valueNode.length > 100) {
            throwError(state, "abnormal merge sequence size");
          }
          for (index = 0, quantity = valueNode.length; index < quantity; index += 1) {
            mergeMappings(state, _result, valueNode[index], overridableKeys);
          }
        } else {
          mergeMappings(state, _result, valueNode, overridableKeys);
        }
      } else {
        if (!state.json && !_hasOwnProperty.call(overridableKeys, keyNode) && _hasOwnProperty.call(_result, keyNode)) {
          state.line = startLine || state.line;
          state.position = startPos || state.position;
          throwError(state, "duplicated mapping key");
        }
        setProperty(_result, keyNode, valueNode);
        delete overridableKeys[keyNode];
      }
      return _result;
    }
    function readLineBreak(state) {
      var ch;
      ch = state.input.charCodeAt(state.position);
      if (ch === 10) {
        state.position++;
      } else if (ch === 13) {
        state.position++;
        if (state.input.charCodeAt(state.position) === 10) {
          state.position++;
        }
      } else {
        throwError(state, "a line break is expected");
      }
      state.line += 1;
      state.lineStart = state.position;
    }
    function skipSeparationSpace(state, allowComments, checkIndent) {
      var lineBreaks = 0, ch = state.input.charCodeAt(state.position);
      while (ch !== 0) {
        while (is_WHITE_SPACE(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        if (allowComments && ch === 35) {
          do {
            ch = state.input.charCodeAt(++state.position);
          } while (ch !== 10 && ch !== 13 && ch !== 0);
        }
        if (is_EOL(ch)) {
          readLineBreak(state);
          ch = state.input.charCodeAt(state.position);
          lineBreaks++;
          state.lineIndent = 0;
          while (ch === 32) {
            state.lineIndent++;
            ch = state.input.charCodeAt(++state.position);
          }
        } else {
          break;
        }
      }
      if (checkIndent !== -1 && lineBreaks !== 0 && state.lineIndent < checkIndent) {
        throwWarning(state, "deficient indentation");
      }
      return lineBreaks;
    }
    function testDocumentSeparator(state) {
      var _position = state.position, ch;
      ch = state.input.charCodeAt(_position);
      if ((ch === 45 || ch === 46) && ch === state.input.charCodeAt(_position + 1) && ch === state.input.charCodeAt(_position + 2)) {
        _position += 3;
        ch = state.input.charCodeAt(_position);
        if (ch === 0 || is_WS_OR_EOL(ch)) {
          return true;
        }
      }
      return false;
    }
    function writeFoldedLines(state, count) {
      if (count === 1) {
        state.result += " ";
      } else if (count > 1) {
        state.result += common.repeat("\n", count - 1);
      }
    }
    function readPlainScalar(state, nodeIndent, withinFlowCollection) {
      var preceding, following, captureStart, captureEnd, hasPendingContent, _line, _lineStart, _lineIndent, _kind = state.kind, _result = state.result, ch;
      ch = state.input.charCodeAt(state.position);
      if (is_WS_OR_EOL(ch) || is_FLOW_INDICATOR(ch) || ch === 35 || ch === 38 || ch === 42 || ch === 33 || ch === 124 || ch === 62 || ch === 39 || ch === 34 || ch === 37 || ch === 64 || ch === 96) {
        return false;
      }
      if (ch === 63 || ch === 45) {
        following = state.input.charCodeAt(state.position + 1);
        if (is_WS_OR_EOL(following) || withinFlowCollection && is_FLOW_INDICATOR(following)) {
          return false;
        }
      }
      state.kind = "scalar";
      state.result = "";
      captureStart = captureEnd = state.position;
      hasPendingContent = false;
      while (ch !== 0) {
        if (ch === 58) {
          following = state.input.charCodeAt(state.position + 1);
          if (is_WS_OR_EOL(following) || withinFlowCollection && is_FLOW_INDICATOR(following)) {
            break;
          }
        } else if (ch === 35) {
          preceding = state.input.charCodeAt(state.position - 1);
          if (is_WS_OR_EOL(preceding)) {
            break;
          }
        } else if (state.position === state.lineStart && testDocumentSeparator(state) || withinFlowCollection && is_FLOW_INDICATOR(ch)) {
          break;
        } else if (is_EOL(ch)) {
          _line = state.line;
          _lineStart = state.lineStart;
          _lineIndent = state.lineIndent;
          skipSeparationSpace(state, false, -1);
          if (state.lineIndent >= nodeIndent) {
            hasPendingContent = true;
            ch = state.input.charCodeAt(state.position);
            continue;
          } else {
            state.position = captureEnd;
            state.line = _line;
            state.lineStart = _lineStart;
            state.lineIndent = _lineIndent;
            break;
          }
        }
        if (hasPendingContent) {
          captureSegment(state, captureStart, captureEnd, false);
          writeFoldedLines(state, state.line - _line);
          captureStart = captureEnd = state.position;
          hasPendingContent = false;
        }
        if (!is_WHITE_SPACE(ch)) {
          captureEnd = state.position + 1;
        }
        ch = state.input.charCodeAt(++state.position);
      }
      captureSegment(state, captureStart, captureEnd, false);
      if (state.result) {
        return true;
      }
      state.kind = _kind;
      state.result = _result;
      return false;
    }
    function readSingleQuotedScalar(state, nodeIndent) {
      var ch, captureStart, captureEnd;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 39) {
        return false;
      }
      state.kind = "scalar";
      state.result = "";
      state.position++;
      captureStart = captureEnd = state.position;
      while ((ch = state.input.charCodeAt(state.position)) !== 0) {
        if (ch === 39) {
          captureSegment(state, captureStart, state.position, true);
          ch = state.input.charCodeAt(++state.position);
          if (ch === 39) {
            captureStart = state.position;
            state.position++;
            captureEnd = state.position;
          } else {
            return true;
          }
        } else if (is_EOL(ch)) {
          captureSegment(state, captureStart, captureEnd, true);
          writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
          captureStart = captureEnd = state.position;
        } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
          throwError(state, "unexpected end of the document within a single quoted scalar");
        } else {
          state.position++;
          captureEnd = state.position;
        }
      }
      throwError(state, "unexpected end of the stream within a single quoted scalar");
    }
    function readDoubleQuotedScalar(state, nodeIndent) {
      var captureStart, captureEnd, hexLength, hexResult, tmp, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 34) {
        return false;
      }
      state.kind = "scalar";
      state.result = "";
      state.position++;
      captureStart = captureEnd = state.position;
      while ((ch = state.input.charCodeAt(state.position)) !== 0) {
        if (ch === 34) {
          captureSegment(state, captureStart, state.position, true);
          state.position++;
          return true;
        } else if (ch === 92) {
          captureSegment(state, captureStart, state.position, true);
          ch = state.input.charCodeAt(++state.position);
          if (is_EOL(ch)) {
            skipSeparationSpace(state, false, nodeIndent);
          } else if (ch < 256 && simpleEscapeCheck[ch]) {
            state.result += simpleEscapeMap[ch];
            state.position++;
          } else if ((tmp = escapedHexLen(ch)) > 0) {
            hexLength = tmp;
            hexResult = 0;
            for (; hexLength > 0; hexLength--) {
              ch = state.input.charCodeAt(++state.position);
              if ((tmp = fromHexCode(ch)) >= 0) {
                hexResult = (hexResult << 4) + tmp;
              } else {
                throwError(state, "expected hexadecimal character");
              }
            }
            state.result += charFromCodepoint(hexResult);
            state.position++;
          } else {
            throwError(state, "unknown escape sequence");
          }
          captureStart = captureEnd = state.position;
        } else if (is_EOL(ch)) {
          captureSegment(state, captureStart, captureEnd, true);
          writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
          captureStart = captureEnd = state.position;
        } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
          throwError(state, "unexpected end of the document within a double quoted scalar");
        } else {
          state.position++;
          captureEnd = state.position;
        }
      }
      throwError(state, "unexpected end of the stream within a double quoted scalar");
    }
    function readFlowCollection(state, nodeIndent) {
      var readNext = true, _line, _tag = state.tag, _result, _anchor = state.anchor, following, terminator, isPair, isExplicitPair, isMapping2, overridableKeys = {}, keyNode, keyTag, valueNode, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch === 91) {
        terminator = 93;
        isMapping2 = false;
        _result = [];
      } else if (ch === 123) {
        terminator = 125;
        isMapping2 = true;
        _result = {};
      } else {
        return false;
      }
      if (state.anchor !== null) {
        state.anchorMap[state.anchor] = _result;
      }
      ch = state.input.charCodeAt(++state.position);
      while (ch !== 0) {
        skipSeparationSpace(state, true, nodeIndent);
        ch = state.input.charCodeAt(state.position);
        if (ch === terminator) {
          state.position++;
          state.tag = _tag;
          state.anchor = _anchor;
          state.kind = isMapping2 ? "mapping" : "sequence";
          state.result = _result;
          return true;
        } else if (!readNext) {
          throwError(state, "missed comma between flow collection entries");
        }
        keyTag = keyNode = valueNode = null;
        isPair = isExplicitPair = false;
        if (ch === 63) {
          following = state.input.charCodeAt(state.position + 1);
          if (is_WS_OR_EOL(following)) {
            isPair = isExplicitPair = true;
            state.position++;
            skipSeparationSpace(state, true, nodeIndent);
          }
        }
        _line = state.line;
        composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
        keyTag = state.tag;
        keyNode = state.result;
        skipSeparationSpace(state, true, nodeIndent);
        ch = state.input.charCodeAt(state.position);
        if ((isExplicitPair || state.line === _line) && ch === 58) {
          isPair = true;
          ch = state.input.charCodeAt(++state.position);
          skipSeparationSpace(state, true, nodeIndent);
          composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
          valueNode = state.result;
        }
        if (isMapping2) {
          storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode);
        } else if (isPair) {
          _result.push(storeMappingPair(state, null, overridableKeys, keyTag, keyNode, valueNode));
        } else {
          _result.push(keyNode);
        }
        skipSeparationSpace(state, true, nodeIndent);
        ch = state.input.charCodeAt(state.position);
        if (ch === 44) {
          readNext = true;
          ch = state.input.charCodeAt(++state.position);
        } else {
          readNext = false;
        }
      }
      throwError(state, "unexpected end of the stream within a flow collection");
    }
    function readBlockScalar(state, nodeIndent) {
      var captureStart, folding, chomping = CHOMPING_CLIP, didReadContent = false, detectedIndent = false, textIndent = nodeIndent, emptyLines = 0, atMoreIndented = false, tmp, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch === 124) {
        folding = false;
      } else if (ch === 62) {
        folding = true;
      } else {
        return false;
      }
      state.kind = "scalar";
      state.result = "";
      while (ch !== 0) {
        ch = state.input.charCodeAt(++state.position);
        if (ch === 43 || ch === 45) {
          if (CHOMPING_CLIP === chomping) {
            chomping = ch === 43 ? CHOMPING_KEEP : CHOMPING_STRIP;
          } else {
            throwError(state, "repeat of a chomping mode identifier");
          }
        } else if ((tmp = fromDecimalCode(ch)) >= 0) {
          if (tmp === 0) {
            throwError(state, "bad explicit indentation width of a block scalar; it cannot be less than one");
          } else if (!detectedIndent) {
            textIndent = nodeIndent + tmp - 1;
            detectedIndent = true;
          } else {
            throwError(state, "repeat of an indentation width identifier");
          }
        } else {
          break;
        }
      }
      if (is_WHITE_SPACE(ch)) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (is_WHITE_SPACE(ch));
        if (ch === 35) {
          do {
            ch = state.input.charCodeAt(++state.position);
          } while (!is_EOL(ch) && ch !== 0);
        }
      }
      while (ch !== 0) {
        readLineBreak(state);
        state.lineIndent = 0;
        ch = state.input.charCodeAt(state.position);
        while ((!detectedIndent || state.lineIndent < textIndent) && ch === 32) {
          state.lineIndent++;
          ch = state.input.charCodeAt(++state.position);
        }
        if (!detectedIndent && state.lineIndent > textIndent) {
          textIndent = state.lineIndent;
        }
        if (is_EOL(ch)) {
          emptyLines++;
          continue;
        }
        if (state.lineIndent < textIndent) {
          if (chomping === CHOMPING_KEEP) {
            state.result += common.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
          } else if (chomping === CHOMPING_CLIP) {
            if (didReadContent) {
              state.result += "\n";
            }
          }
          break;
        }
        if (folding) {
          if (is_WHITE_SPACE(ch)) {
            atMoreIndented = true;
            state.result += common.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
          } else if (atMoreIndented) {
            atMoreIndented = false;
            state.result += common.repeat("\n", emptyLines + 1);
          } else if (emptyLines === 0) {
            if (didReadContent) {
              state.result += " ";
            }
          } else {
            state.result += common.repeat("\n", emptyLines);
          }
        } else {
          state.result += common.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        }
        didReadContent = true;
        detectedIndent = true;
        emptyLines = 0;
        captureStart = state.position;
        while (!is_EOL(ch) && ch !== 0) {
          ch = state.input.charCodeAt(++state.position);
        }
        captureSegment(state, captureStart, state.position, false);
      }
      return true;
    }
    function readBlockSequence(state, nodeIndent) {
      var _line, _tag = state.tag, _anchor = state.anchor, _result = [], following, detected = false, ch;
      if (state.anchor !== null) {
        state.anchorMap[state.anchor] = _result;
      }
      ch = state.input.charCodeAt(state.position);
      while (ch !== 0) {
        if (ch !== 45) {
          break;
        }
        following = state.input.charCodeAt(state.position + 1);
        if (!is_WS_OR_EOL(following)) {
          break;
        }
        detected = true;
        state.position++;
        if (skipSeparationSpace(state, true, -1)) {
          if (state.lineIndent <= nodeIndent) {
            _result.push(null);
            ch = state.input.charCodeAt(state.position);
            continue;
          }
        }
        _line = state.line;
        composeNode(state, nodeIndent, CONTEXT_BLOCK_IN, false, true);
        _result.push(state.result);
        skipSeparationSpace(state, true, -1);
        ch = state.input.charCodeAt(state.position);
        if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
          throwError(state, "bad indentation of a sequence entry");
        } else if (state.lineIndent < nodeIndent) {
          break;
        }
      }
      if (detected) {
        state.tag = _tag;
        state.anchor = _anchor;
        state.kind = "sequence";
        state.result = _result;
        return true;
      }
      return false;
    }
    function readBlockMapping(state, nodeIndent, flowIndent) {
      var following, allowCompact, _line, _pos, _tag = state.tag, _anchor = state.anchor, _result = {}, overridableKeys = {}, keyTag = null, keyNode = null, valueNode = null, atExplicitKey = false, detected = false, ch;
      if (state.anchor !== null) {
        state.anchorMap[state.anchor] = _result;
      }
      ch = state.input.charCodeAt(state.position);
      while (ch !== 0) {
        following = state.input.charCodeAt(state.position + 1);
        _line = state.line;
        _pos = state.position;
        if ((ch === 63 || ch === 58) && is_WS_OR_EOL(following)) {
          if (ch === 63) {
            if (atExplicitKey) {
              storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null);
              keyTag = keyNode = valueNode = null;
            }
            detected = true;
            atExplicitKey = true;
            allowCompact = true;
          } else if (atExplicitKey) {
            atExplicitKey = false;
            allowCompact = true;
          } else {
            throwError(state, "incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line");
          }
          state.position += 1;
          ch = following;
        } else if (composeNode(state, flowIndent, CONTEXT_FLOW_OUT, false, true)) {
          if (state.line === _line) {
            ch = state.input.charCodeAt(state.position);
            while (is_WHITE_SPACE(ch)) {
              ch = state.input.charCodeAt(++state.position);
            }
            if (ch === 58) {
              ch = state.input.charCodeAt(++state.position);
              if (!is_WS_OR_EOL(ch)) {
                throwError(state, "a whitespace character is expected after the key-value separator within a block mapping");
              }
              if (atExplicitKey) {
                storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null);
                keyTag = keyNode = valueNode = null;
              }
              detected = true;
              atExplicitKey = false;
              allowCompact = false;
              keyTag = state.tag;
              keyNode = state.result;
            } else if (detected) {
              throwError(state, "can not read an implicit mapping pair; a colon is missed");
            } else {
              state.tag = _tag;
              state.anchor = _anchor;
              return true;
            }
          } else if (detected) {
            throwError(state, "can not read a block mapping entry; a multiline key may not be an implicit key");
          } else {
            state.tag = _tag;
            state.anchor = _anchor;
            return true;
          }
        } else {
          break;
        }
        if (state.line === _line || state.lineIndent > nodeIndent) {
          if (composeNode(state, nodeIndent, CONTEXT_BLOCK_OUT, true, allowCompact)) {
            if (atExplicitKey) {
              keyNode = state.result;
            } else {
              valueNode = state.result;
            }
          }
          if (!atExplicitKey) {
            storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _line, _pos);
            keyTag = keyNode = valueNode = null;
          }
          skipSeparationSpace(state, true, -1);
          ch = state.input.charCodeAt(state.position);
        }
        if (state.lineIndent > nodeIndent && ch !== 0) {
          throwError(state, "bad indentation of a mapping entry");
        } else if (state.lineIndent < nodeIndent) {
          break;
        }
      }
      if (atExplicitKey) {
        storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null);
      }
      if (detected) {
        state.tag = _tag;
        state.anchor = _anchor;
        state.kind = "mapping";
        state.result = _result;
      }
      return detected;
    }
    function readTagProperty(state) {
      var _position, isVerbatim = false, isNamed = false, tagHandle, tagName, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 33) return false;
      if (state.tag !== null) {
        throwError(state, "duplication of a tag property");
      }
      ch = state.input.charCodeAt(++state.position);
      if (ch === 60) {
        isVerbatim = true;
        ch = state.input.charCodeAt(++state.position);
      } else if (ch === 33) {
        isNamed = true;
        tagHandle = "!!";
        ch = state.input.charCodeAt(++state.position);
      } else {
        tagHandle = "!";
      }
      _position = state.position;
      if (isVerbatim) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (ch !== 0 && ch !== 62);
        if (state.position < state.length) {
          tagName = state.input.slice(_position, state.position);
          ch = state.input.charCodeAt(++state.position);
        } else {
          throwError(state, "unexpected end of the stream within a verbatim tag");
        }
      } else {
        while (ch !== 0 && !is_WS_OR_EOL(ch)) {
          if (ch === 33) {
            if (!isNamed) {
              tagHandle = state.input.slice(_position - 1, state.position + 1);
              if (!PATTERN_TAG_HANDLE.test(tagHandle)) {
                throwError(state, "named tag handle cannot contain such characters");
              }
              isNamed = true;
              _position = state.position + 1;
            } else {
              throwError(state, "tag suffix cannot contain exclamation marks");
            }
          }
          ch = state.input.charCodeAt(++state.position);
        }
        tagName = state.input.slice(_position, state.position);
        if (PATTERN_FLOW_INDICATORS.test(tagName)) {
          throwError(state, "tag suffix cannot contain flow indicator characters");
        }
      }
      if (tagName && !PATTERN_TAG_URI.test(tagName)) {
        throwError(state, "tag name cannot contain such characters: " + tagName);
      }
      if (isVerbatim) {
        state.tag = tagName;
      } else if (_hasOwnProperty.call(state.tagMap, tagHandle)) {
        state.tag = state.tagMap[tagHandle] + tagName;
      } else if (tagHandle === "!") {
        state.tag = "!" + tagName;
      } else if (tagHandle === "!!") {
        state.tag = "tag:yaml.org,2002:" + tagName;
      } else {
        throwError(state, 'undeclared tag handle "' + tagHandle + '"');
      }
      return true;
    }
    function readAnchorProperty(state) {
      var _position, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 38) return false;
      if (state.anchor !== null) {
        throwError(state, "duplication of an anchor property");
      }
      ch = state.input.charCodeAt(++state.position);
      _position = state.position;
      while (ch !== 0 && !is_WS_OR_EOL(ch) && !is_FLOW_INDICATOR(ch)) {
        ch = state.input.charCodeAt(++state.position);
      }
      if (state.position === _position) {
        throwError(state, "name of an anchor node must contain at least one character");
      }
      state.anchor = state.input.slice(_position, state.position);
      return true;
    }
    function readAlias(state) {
      var _position, alias, ch;
      ch = state.input.charCodeAt(state.position);
      if (ch !== 42) return false;
      ch = state.input.charCodeAt(++state.position);
      _position = state.position;
      while (ch !== 0 && !is_WS_OR_EOL(ch) && !is_FLOW_INDICATOR(ch)) {
        ch = state.input.charCodeAt(++state.position);
      }
      if (state.position === _position) {
        throwError(state, "name of an alias node must contain at least one character");
      }
      alias = state.input.slice(_position, state.position);
      if (!_hasOwnProperty.call(state.anchorMap, alias)) {
        throwError(state, 'unidentified alias "' + alias + '"');
      }
      state.result = state.anchorMap[alias];
      skipSeparationSpace(state, true, -1);
      return true;
    }
    function composeNode(state, parentIndent, nodeContext, allowToSeek, allowCompact) {
      var allowBlockStyles, allowBlockScalars, allowBlockCollections, indentStatus = 1, atNewLine = false, hasContent = false, typeIndex, typeQuantity, type, flowIndent, blockIndent;
      if (state.listener !== null) {
        state.listener("open", state);
      }
      state.tag = null;
      state.anchor = null;
      state.kind = null;
      state.result = null;
      allowBlockStyles = allowBlockScalars = allowBlockCollections = CONTEXT_BLOCK_OUT === nodeContext || CONTEXT_BLOCK_IN === nodeContext;
      if (allowToSeek) {
        if (skipSeparationSpace(state, true, -1)) {
          atNewLine = true;
          if (state.lineIndent > parentIndent) {
            indentStatus = 1;
          } else if (state.lineIndent === parentIndent) {
            indentStatus = 0;
          } else if (state.lineIndent < parentIndent) {
            indentStatus = -1;
          }
        }
      }
      if (indentStatus === 1) {
        while (readTagProperty(state) || readAnchorProperty(state)) {
          if (skipSeparationSpace(state, true, -1)) {
            atNewLine = true;
            allowBlockCollections = allowBlockStyles;
            if (state.lineIndent > parentIndent) {
              indentStatus = 1;
            } else if (state.lineIndent === parentIndent) {
              indentStatus = 0;
            } else if (state.lineIndent < parentIndent) {
              indentStatus = -1;
            }
          } else {
            allowBlockCollections = false;
          }
        }
      }
      if (allowBlockCollections) {
        allowBlockCollections = atNewLine || allowCompact;
      }
      if (indentStatus === 1 || CONTEXT_BLOCK_OUT === nodeContext) {
        if (CONTEXT_FLOW_IN === nodeContext || CONTEXT_FLOW_OUT === nodeContext) {
          flowIndent = parentIndent;
        } else {
          flowIndent = parentIndent + 1;
        }
        blockIndent = state.position - state.lineStart;
        if (indentStatus === 1) {
          if (allowBlockCollections && (readBlockSequence(state, blockIndent) || readBlockMapping(state, blockIndent, flowIndent)) || readFlowCollection(state, flowIndent)) {
            hasContent = true;
          } else {
            if (allowBlockScalars && readBlockScalar(state, flowIndent) || readSingleQuotedScalar(state, flowIndent) || readDoubleQuotedScalar(state, flowIndent)) {
              hasContent = true;
            } else if (readAlias(state)) {
              hasContent = true;
              if (state.tag !== null || state.anchor !== null) {
                throwError(state, "alias node should not have any properties");
              }
            } else if (readPlainScalar(state, flowIndent, CONTEXT_FLOW_IN === nodeContext)) {
              hasContent = true;
              if (state.tag === null) {
                state.tag = "?";
              }
            }
            if (state.anchor !== null) {
              state.anchorMap[state.anchor] = state.result;
            }
          }
        } else if (indentStatus === 0) {
          hasContent = allowBlockCollections && readBlockSequence(state, blockIndent);
        }
      }
      if (state.tag !== null && state.tag !== "!") {
        if (state.tag === "?") {
          if (state.result !== null && state.kind !== "scalar") {
            throwError(state, 'unacceptable node kind for !<?> tag; it should be "scalar", not "' + state.kind + '"');
          }
          for (typeIndex = 0, typeQuantity = state.implicitTypes.length; typeIndex < typeQuantity; typeIndex += 1) {
            type = state.implicitTypes[typeIndex];
            if (type.resolve(state.result)) {
              state.result = type.construct(state.result);
              state.tag = type.tag;
              if (state.anchor !== null) {
                state.anchorMap[state.anchor] = state.result;
              }
              break;
            }
          }
        } else if (_hasOwnProperty.call(state.typeMap[state.kind || "fallback"], state.tag)) {
          type = state.typeMap[state.kind || "fallback"][state.tag];
          if (state.result !== null && type.kind !== state.kind) {
            throwError(state, "unacceptable node kind for !<" + state.tag + '> tag; it should be "' + type.kind + '", not "' + state.kind + '"');
          }
          if (!type.resolve(state.result)) {
            throwError(state, "cannot resolve a node with !<" + state.tag + "> explicit tag");
          } else {
            state.result = type.construct(state.result);
            if (state.anchor !== null) {
              state.anchorMap[state.anchor] = state.result;
            }
          }
        } else {
          throwError(state, "unknown tag !<" + state.tag + ">");
        }
      }
      if (state.listener !== null) {
        state.listener("close", state);
      }
      return state.tag !== null || state.anchor !== null || hasContent;
    }
    function readDocument(state) {
      var documentStart = state.position, _position, directiveName, directiveArgs, hasDirectives = false, ch;
      state.version = null;
      state.checkLineBreaks = state.legacy;
      state.tagMap = {};
      state.anchorMap = {};
      while ((ch = state.input.charCodeAt(state.position)) !== 0) {
        skipSeparationSpace(state, true, -1);
        ch = state.input.charCodeAt(state.position);
        if (state.lineIndent > 0 || ch !== 37) {
          break;
        }
        hasDirectives = true;
        ch = state.input.charCodeAt(++state.position);
        _position = state.position;
        while (ch !== 0 && !is_WS_OR_EOL(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        directiveName = state.input.slice(_position, state.position);
        directiveArgs = [];
        if (directiveName.length < 1) {
          throwError(state, "directive name must not be less than one character in length");
        }
        while (ch !== 0) {
          while (is_WHITE_SPACE(ch)) {
            ch = state.input.charCodeAt(++state.position);
          }
          if (ch === 35) {
            do {
              ch = state.input.charCodeAt(++state.position);
            } while (ch !== 0 && !is_EOL(ch));
            break;
          }
          if (is_EOL(ch)) break;
          _position = state.position;
          while (ch !== 0 && !is_WS_OR_EOL(ch)) {
            ch = state.input.charCodeAt(++state.position);
          }
          directiveArgs.push(state.input.slice(_position, state.position));
        }
        if (ch !== 0) readLineBreak(state);
        if (_hasOwnProperty.call(directiveHandlers, directiveName)) {
          directiveHandlers[directiveName](state, directiveName, directiveArgs);
        } else {
          throwWarning(state, 'unknown document directive "' + directiveName + '"');
        }
      }
      skipSeparationSpace(state, true, -1);
      if (state.lineIndent === 0 && state.input.charCodeAt(state.position) === 45 && state.input.charCodeAt(state.position + 1) === 45 && state.input.charCodeAt(state.position + 2) === 45) {
        state.position += 3;
        skipSeparationSpace(state, true, -1);
      } else if (hasDirectives) {
        throwError(state, "directives end mark is expected");
      }
      composeNode(state, state.lineIndent - 1, CONTEXT_BLOCK_OUT, false, true);
      skipSeparationSpace(state, true, -1);
      if (state.checkLineBreaks && PATTERN_NON_ASCII_LINE_BREAKS.test(state.input.slice(documentStart, state.position))) {
        throwWarning(state, "non-ASCII line breaks are interpreted as content");
      }
      state.documents.push(state.result);
      if (state.position === state.lineStart && testDocumentSeparator(state)) {
        if (state.input.charCodeAt(state.position) === 46) {
          state.position += 3;
          skipSeparationSpace(state, true, -1);
        }
        return;
      }
      if (state.position < state.length - 1) {
        throwError(state, "end of the stream or a document separator is expected");
      } else {
        return;
      }
    }
    function loadDocuments(input, options2) {
      input = String(input);
      options2 = options2 || {};
      if (input.length !== 0) {
        if (input.charCodeAt(input.length - 1) !== 10 && input.charCodeAt(input.length - 1) !== 13) {
          input += "\n";
        }
        if (input.charCodeAt(0) === 65279) {
          input = input.slice(1);
        }
      }
      var state = new State(input, options2);
      var nullpos = input.indexOf("\0");
      if (nullpos !== -1) {
        state.position = nullpos;
        throwError(state, "null byte is not allowed in input");
      }
      state.input += "\0";
      while (state.input.charCodeAt(state.position) === 32) {
        state.lineIndent += 1;
        state.position += 1;
      }
      while (state.position < state.length - 1) {
        readDocument(state);
      }
      return state.documents;
    }
    function loadAll(input, iterator, options2) {
      if (iterator !== null && typeof iterator === "object" && typeof options2 === "undefined") {
        options2 = iterator;
        iterator = null;
      }
      var documents = loadDocuments(input, options2);
      if (typeof iterator !== "function") {
        return documents;
      }
      for (var index = 0, length = documents.length; index < length; index += 1) {
        iterator(documents[index]);
      }
    }
    function load(input, options2) {
      var documents = loadDocuments(input, options2);
      if (documents.length === 0) {
        return void 0;
      } else if (documents.length === 1) {
        return documents[0];
      }
      throw new YAMLException("expected a single document in the stream, but found more");
    }
    function safeLoadAll(input, iterator, options2) {
      if (typeof iterator === "object" && iterator !== null && typeof options2 === "undefined") {
        options2 = iterator;
        iterator = null;
      }
      return loadAll(input, iterator, common.extend({ schema: DEFAULT_SAFE_SCHEMA }, options2));
    }
    function safeLoad(input, options2) {
      return load(input, common.extend({ schema: DEFAULT_SAFE_SCHEMA }, options2));
    }
    module2.exports.loadAll = loadAll;
    module2.exports.load = load;
    module2.exports.safeLoadAll = safeLoadAll;
    module2.exports.safeLoad = safeLoad;
  }
});

// node_modules/js-yaml/lib/js-yaml/dumper.js
var require_dumper = __commonJS({
  "node_modules/js-yaml/lib/js-yaml/dumper.js"(exports2, module2) {
    "use strict";
    var common = require_common();
    var YAMLException = require_exception();
    var DEFAULT_FULL_SCHEMA = require_default_full();
    var DEFAULT_SAFE_SCHEMA = require_default_safe();
    var _toString = Object.prototype.toString;
    var _hasOwnProperty = Object.prototype.hasOwnProperty;
    var CHAR_TAB = 9;
    var CHAR_LINE_FEED = 10;
    var CHAR_CARRIAGE_RETURN = 13;
    var CHAR_SPACE = 32;
    var CHAR_EXCLAMATION = 33;
    var CHAR_DOUBLE_QUOTE = 34;
    var CHAR_SHARP = 35;
    var CHAR_PERCENT = 37;
    var CHAR_AMPERSAND = 38;
    var CHAR_SINGLE_QUOTE = 39;
    var CHAR_ASTERISK = 42;
    var CHAR_COMMA = 44;
    var CHAR_MINUS = 45;
    var CHAR_COLON = 58;
    var CHAR_EQUALS = 61;
    var CHAR_GREATER_THAN = 62;
    var CHAR_QUESTION = 63;
    var CHAR_COMMERCIAL_AT = 64;
    var CHAR_LEFT_SQUARE_BRACKET = 91;
    var CHAR_RIGHT_SQUARE_BRACKET = 93;
    var CHAR_GRAVE_ACCENT = 96;
    var CHAR_LEFT_CURLY_BRACKET = 123;
    var CHAR_VERTICAL_LINE = 124;
    var CHAR_RIGHT_CURLY_BRACKET = 125;
    var ESCAPE_SEQUENCES = {};
    ESCAPE_SEQUENCES[0] = "\\0";
    ESCAPE_SEQUENCES[7] = "\\a";
    ESCAPE_SEQUENCES[8] = "\\b";
    ESCAPE_SEQUENCES[9] = "\\t";
    ESCAPE_SEQUENCES[10] = "\\n";
    ESCAPE_SEQUENCES[11] = "\\v";
    ESCAPE_SEQUENCES[12] = "\\f";
    ESCAPE_SEQUENCES[13] = "\\r";
    ESCAPE_SEQUENCES[27] = "\\e";
    ESCAPE_SEQUENCES[34] = '\\"';
    ESCAPE_SEQUENCES[92] = "\\\\";
    ESCAPE_SEQUENCES[133] = "\\N";
    ESCAPE_SEQUENCES[160] = "\\_";
    ESCAPE_SEQUENCES[8232] = "\\L";
    ESCAPE_SEQUENCES[8233] = "\\P";
    var DEPRECATED_BOOLEANS_SYNTAX = [
      "y",
      "Y",
      "yes",
      "Yes",
      "YES",
      "on",
      "On",
      "ON",
      "n",
      "N",
      "no",
      "No",
      "NO",
      "off",
      "Off",
      "OFF"
    ];
    function compileStyleMap(schema, map) {
      var result, keys, index, length, tag2, style, type;
      if (map === null) return {};
      result = {};
      keys = Object.keys(map);
      for (index = 0, length = keys.length; index < length; index += 1) {
        tag2 = keys[index];
        style = String(map[tag2]);
        if (tag2.slice(0, 2) === "!!") {
          tag2 = "tag:yaml.org,2002:" + tag2.slice(2);
        }
        type = schema.compiledTypeMap["fallback"][tag2];
        if (type && _hasOwnProperty.call(type.styleAliases, style)) {
          style = type.styleAliases[style];
        }
        result[tag2] = style;
      }
      return result;
    }
    function encodeHex(character) {
      var string, handle, length;
      string = character.toString(16).toUpperCase();
      if (character <= 255) {
        handle = "x";
        length = 2;
      } else if (character <= 65535) {
        handle = "u";
        length = 4;
      } else if (character <= 4294967295) {
        handle = "U";
        length = 8;
      } else {
        throw new YAMLException("code point within a string may not be greater than 0xFFFFFFFF");
      }
      return "\\" + handle + common.repeat("0", length - string.length) + string;
    }
    function State(options2) {
      this.schema = options2["schema"] || DEFAULT_FULL_SCHEMA;
      this.indent = Math.max(1, options2["indent"] || 2);
      this.noArrayIndent = options2["noArrayIndent"] || false;
      this.skipInvalid = options2["skipInvalid"] || false;
      this.flowLevel = common.isNothing(options2["flowLevel"]) ? -1 : options2["flowLevel"];
      this.styleMap = compileStyleMap(this.schema, options2["styles"] || null);
      this.sortKeys = options2["sortKeys"] || false;
      this.lineWidth = options2["lineWidth"] || 80;
      this.noRefs = options2["noRefs"] || false;
      this.noCompatMode = options2["noCompatMode"] || false;
      this.condenseFlow = options2["condenseFlow"] || false;
      this.implicitTypes = this.schema.compiledImplicit;
      this.explicitTypes = this.schema.compiledExplicit;
      this.tag = null;
      this.result = "";
      this.duplicates = [];
      this.usedDuplicates = null;
    }
    function indentString(string, spaces) {
      var ind = common.repeat(" ", spaces), position = 0, next = -1, result = "", line, length = string.length;
      while (position < length) {
        next = string.indexOf("\n", position);
        if (next === -1) {
          line = string.slice(position);
          position = length;
        } else {
          line = string.slice(position, next + 1);
          position = next + 1;
        }
        if (line.length && line !== "\n") result += ind;
        result += line;
      }
      return result;
    }
    function generateNextLine(state, level) {
      return "\n" + common.repeat(" ", state.indent * level);
    }
    function testImplicitResolving(state, str2) {
      var index, length, type;
      for (index = 0, length = state.implicitTypes.length; index < length; index += 1) {
        type = state.implicitTypes[index];
        if (type.resolve(str2)) {
          return true;
        }
      }
      return false;
    }
    function isWhitespace(c) {
      return c === CHAR_SPACE || c === CHAR_TAB;
    }
    function isPrintable(c) {
      return 32 <= c && c <= 126 || 161 <= c && c <= 55295 && c !== 8232 && c !== 8233 || 57344 <= c && c <= 65533 && c !== 65279 || 65536 <= c && c <= 1114111;
    }
    function isNsChar(c) {
      return isPrintable(c) && !isWhitespace(c) && c !== 65279 && c !== CHAR_CARRIAGE_RETURN && c !== CHAR_LINE_FEED;
    }
    function isPlainSafe(c, prev) {
      return isPrintable(c) && c !== 65279 && c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET && c !== CHAR_COLON && (c !== CHAR_SHARP || prev && isNsChar(prev));
    }
    function isPlainSafeFirst(c) {
      return isPrintable(c) && c !== 65279 && !isWhitespace(c) && c !== CHAR_MINUS && c !== CHAR_QUESTION && c !== CHAR_COLON && c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET && c !== CHAR_SHARP && c !== CHAR_AMPERSAND && c !== CHAR_ASTERISK && c !== CHAR_EXCLAMATION && c !== CHAR_VERTICAL_LINE && c !== CHAR_EQUALS && c !== CHAR_GREATER_THAN && c !== CHAR_SINGLE_QUOTE && c !== CHAR_DOUBLE_QUOTE && c !== CHAR_PERCENT && c !== CHAR_COMMERCIAL_AT && c !== CHAR_GRAVE_ACCENT;
    }
    function needIndentIndicator(string) {
      var leadingSpaceRe = /^\n* /;
      return leadingSpaceRe.test(string);
    }
    var STYLE_PLAIN = 1;
    var STYLE_SINGLE = 2;
    var STYLE_LITERAL = 3;
    var STYLE_FOLDED = 4;
    var STYLE_DOUBLE = 5;
    function chooseScalarStyle(string, singleLineOnly, indentPerLevel, lineWidth, testAmbiguousType) {
      var i;
      var char, prev_char;
      var hasLineBreak = false;
      var hasFoldableLine = false;
      var shouldTrackWidth = lineWidth !== -1;
      var previousLineBreak = -1;
      var plain = isPlainSafeFirst(string.charCodeAt(0)) && !isWhitespace(string.charCodeAt(string.length - 1));
      if (singleLineOnly) {
        for (i = 0; i < string.length; i++) {
          char = string.charCodeAt(i);
          if (!isPrintable(char)) {
            return STYLE_DOUBLE;
          }
          prev_char = i > 0 ? string.charCodeAt(i - 1) : null;
          plain = plain && isPlainSafe(char, prev_char);
        }
      } else {
        for (i = 0; i < string.length; i++) {
          char = string.charCodeAt(i);
          if (char === CHAR_LINE_FEED) {
            hasLineBreak = true;
            if (shouldTrackWidth) {
              hasFoldableLine = hasFoldableLine || // Foldable line = too long, and not more-indented.
              i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ";
              previousLineBreak = i;
            }
          } else if (!isPrintable(char)) {
            return STYLE_DOUBLE;
          }
          prev_char = i > 0 ? string.charCodeAt(i - 1) : null;
          plain = plain && isPlainSafe(char, prev_char);
        }
        hasFoldableLine = hasFoldableLine || shouldTrackWidth && (i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ");
      }
      if (!hasLineBreak && !hasFoldableLine) {
        return plain && !testAmbiguousType(string) ? STYLE_PLAIN : STYLE_SINGLE;
      }
      if (indentPerLevel > 9 && needIndentIndicator(string)) {
        return STYLE_DOUBLE;
      }
      return hasFoldableLine ? STYLE_FOLDED : STYLE_LITERAL;
    }
    function writeScalar(state, string, level, iskey) {
      state.dump = (function() {
        if (string.length === 0) {
          return "''";
        }
        if (!state.noCompatMode && DEPRECATED_BOOLEANS_SYNTAX.indexOf(string) !== -1) {
          return "'" + string + "'";
        }
        var indent = state.indent * Math.max(1, level);
        var lineWidth = state.lineWidth === -1 ? -1 : Math.max(Math.min(state.lineWidth, 40), state.lineWidth - indent);
        var singleLineOnly = iskey || state.flowLevel > -1 && level >= state.flowLevel;
        function testAmbiguity(string2) {
          return testImplicitResolving(state, string2);
        }
        switch (chooseScalarStyle(string, singleLineOnly, state.indent, lineWidth, testAmbiguity)) {
          case STYLE_PLAIN:
            return string;
          case STYLE_SINGLE:
            return "'" + string.replace(/'/g, "''") + "'";
          case STYLE_LITERAL:
            return "|" + blockHeader(string, state.indent) + dropEndingNewline(indentString(string, indent));
          case STYLE_FOLDED:
            return ">" + blockHeader(string, state.indent) + dropEndingNewline(indentString(foldString(string, lineWidth), indent));
          case STYLE_DOUBLE:
            return '"' + escapeString2(string, lineWidth) + '"';
          default:
            throw new YAMLException("impossible error: invalid scalar style");
        }
      })();
    }
    function blockHeader(string, indentPerLevel) {
      var indentIndicator = needIndentIndicator(string) ? String(indentPerLevel) : "";
      var clip2 = string[string.length - 1] === "\n";
      var keep2 = clip2 && (string[string.length - 2] === "\n" || string === "\n");
      var chomp = keep2 ? "+" : clip2 ? "" : "-";
      return indentIndicator + chomp + "\n";
    }
    function dropEndingNewline(string) {
      return string[string.length - 1] === "\n" ? string.slice(0, -1) : string;
    }
    function foldString(string, width) {
      var lineRe = /(\n+)([^\n]*)/g;
      var result = (function() {
        var nextLF = string.indexOf("\n");
        nextLF = nextLF !== -1 ? nextLF : string.length;
        lineRe.lastIndex = nextLF;
        return foldLine(string.slice(0, nextLF), width);
      })();
      var prevMoreIndented = string[0] === "\n" || string[0] === " ";
      var moreIndented;
      var match;
      while (match = lineRe.exec(string)) {
        var prefix = match[1], line = match[2];
        moreIndented = line[0] === " ";
        result += prefix + (!prevMoreIndented && !moreIndented && line !== "" ? "\n" : "") + foldLine(line, width);
        prevMoreIndented = moreIndented;
      }
      return result;
    }
    function foldLine(line, width) {
      if (line === "" || line[0] === " ") return line;
      var breakRe = / [^ ]/g;
      var match;
      var start = 0, end, curr = 0, next = 0;
      var result = "";
      while (match = breakRe.exec(line)) {
        next = match.index;
        if (next - start > width) {
          end = curr > start ? curr : next;
          result += "\n" + line.slice(start, end);
          start = end + 1;
        }
        curr = next;
      }
      result += "\n";
      if (line.length - start > width && curr > start) {
        result += line.slice(start, curr) + "\n" + line.slice(curr + 1);
      } else {
        result += line.slice(start);
      }
      return result.slice(1);
    }
    function escapeString2(string) {
      var result = "";
      var char, nextChar;
      var escapeSeq;
      for (var i = 0; i < string.length; i++) {
        char = string.charCodeAt(i);
        if (char >= 55296 && char <= 56319) {
          nextChar = string.charCodeAt(i + 1);
          if (nextChar >= 56320 && nextChar <= 57343) {
            result += encodeHex((char - 55296) * 1024 + nextChar - 56320 + 65536);
            i++;
            continue;
          }
        }
        escapeSeq = ESCAPE_SEQUENCES[char];
        result += !escapeSeq && isPrintable(char) ? string[i] : escapeSeq || encodeHex(char);
      }
      return result;
    }
    function writeFlowSequence(state, level, object) {
      var _result = "", _tag = state.tag, index, length;
      for (index = 0, length = object.length; index < length; index += 1) {
        if (writeNode(state, level, object[index], false, false)) {
          if (index !== 0) _result += "," + (!state.condenseFlow ? " " : "");
          _result += state.dump;
        }
      }
      state.tag = _tag;
      state.dump = "[" + _result + "]";
    }
    function writeBlockSequence(state, level, object, compact) {
      var _result = "", _tag = state.tag, index, length;
      for (index = 0, length = object.length; index < length; index += 1) {
        if (writeNode(state, level + 1, object[index], true, true)) {
          if (!compact || index !== 0) {
            _result += generateNextLine(state, level);
          }
          if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
            _result += "-";
          } else {
            _result += "- ";
          }
          _result += state.dump;
        }
      }
      state.tag = _tag;
      state.dump = _result || "[]";
    }
    function writeFlowMapping(state, level, object) {
      var _result = "", _tag = state.tag, objectKeyList = Object.keys(object), index, length, objectKey, objectValue, pairBuffer;
      for (index = 0, length = objectKeyList.length; index < length; index += 1) {
        pairBuffer = "";
        if (index !== 0) pairBuffer += ", ";
        if (state.condenseFlow) pairBuffer += '"';
        objectKey = objectKeyList[index];
        objectValue = object[objectKey];
        if (!writeNode(state, level, objectKey, false, false)) {
          continue;
        }
        if (state.dump.length > 1024) pairBuffer += "? ";
        pairBuffer += state.dump + (state.condenseFlow ? '"' : "") + ":" + (state.condenseFlow ? "" : " ");
        if (!writeNode(state, level, objectValue, false, false)) {
          continue;
        }
        pairBuffer += state.dump;
        _result += pairBuffer;
      }
      state.tag = _tag;
      state.dump = "{" + _result + "}";
    }
    function writeBlockMapping(state, level, object, compact) {
      var _result = "", _tag = state.tag, objectKeyList = Object.keys(object), index, length, objectKey, objectValue, explicitPair, pairBuffer;
      if (state.sortKeys === true) {
        objectKeyList.sort();
      } else if (typeof state.sortKeys === "function") {
        objectKeyList.sort(state.sortKeys);
      } else if (state.sortKeys) {
        throw new YAMLException("sortKeys must be a boolean or a function");
      }
      for (index = 0, length = objectKeyList.length; index < length; index += 1) {
        pairBuffer = "";
        if (!compact || index !== 0) {
          pairBuffer += generateNextLine(state, level);
        }
        objectKey = objectKeyList[index];
        objectValue = object[objectKey];
        if (!writeNode(state, level + 1, objectKey, true, true, true)) {
          continue;
        }
        explicitPair = state.tag !== null && state.tag !== "?" || state.dump && state.dump.length > 1024;
        if (explicitPair) {
          if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
            pairBuffer += "?";
          } else {
            pairBuffer += "? ";
          }
        }
        pairBuffer += state.dump;
        if (explicitPair) {
          pairBuffer += generateNextLine(state, level);
        }
        if (!writeNode(state, level + 1, objectValue, true, explicitPair)) {
          continue;
        }
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          pairBuffer += ":";
        } else {
          pairBuffer += ": ";
        }
        pairBuffer += state.dump;
        _result += pairBuffer;
      }
      state.tag = _tag;
      state.dump = _result || "{}";
    }
    function detectType(state, object, explicit) {
      var _result, typeList, index, length, type, style;
      typeList = explicit ? state.explicitTypes : state.implicitTypes;
      for (index = 0, length = typeList.length; index < length; index += 1) {
        type = typeList[index];
        if ((type.instanceOf || type.predicate) && (!type.instanceOf || typeof object === "object" && object instanceof type.instanceOf) && (!type.predicate || type.predicate(object))) {
          state.tag = explicit ? type.tag : "?";
          if (type.represent) {
            style = state.styleMap[type.tag] || type.defaultStyle;
            if (_toString.call(type.represent) === "[object Function]") {
              _result = type.represent(object, style);
            } else if (_hasOwnProperty.call(type.represent, style)) {
              _result = type.represent[style](object, style);
            } else {
              throw new YAMLException("!<" + type.tag + '> tag resolver accepts not "' + style + '" style');
            }
            state.dump = _result;
          }
          return true;
        }
      }
      return false;
    }
    function writeNode(state, level, object, block, compact, iskey) {
      state.tag = null;
      state.dump = object;
      if (!detectType(state, object, false)) {
        detectType(state, object, true);
      }
      var type = _toString.call(state.dump);
      if (block) {
        block = state.flowLevel < 0 || state.flowLevel > level;
      }
      var objectOrArray = type === "[object Object]" || type === "[object Array]", duplicateIndex, duplicate;
      if (objectOrArray) {
        duplicateIndex = state.duplicates.indexOf(object);
        duplicate = duplicateIndex !== -1;
      }
      if (state.tag !== null && state.tag !== "?" || duplicate || state.indent !== 2 && level > 0) {
        compact = false;
      }
      if (duplicate && state.usedDuplicates[duplicateIndex]) {
        state.dump = "*ref_" + duplicateIndex;
      } else {
        if (objectOrArray && duplicate && !state.usedDuplicates[duplicateIndex]) {
          state.usedDuplicates[duplicateIndex] = true;
        }
        if (type === "[object Object]") {
          if (block && Object.keys(state.dump).length !== 0) {
            writeBlockMapping(state, level, state.dump, compact);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + state.dump;
            }
          } else {
            writeFlowMapping(state, level, state.dump);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + " " + state.dump;
            }
          }
        } else if (type === "[object Array]") {
          var arrayLevel = state.noArrayIndent && level > 0 ? level - 1 : level;
          if (block && state.dump.length !== 0) {
            writeBlockSequence(state, arrayLevel, state.dump, compact);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + state.dump;
            }
          } else {
            writeFlowSequence(state, arrayLevel, state.dump);
            if (duplicate) {
              state.dump = "&ref_" + duplicateIndex + " " + state.dump;
            }
          }
        } else if (type === "[object String]") {
          if (state.tag !== "?") {
            writeScalar(state, state.dump, level, iskey);
          }
        } else {
          if (state.skipInvalid) return false;
          throw new YAMLException("unacceptable kind of an object to dump " + type);
        }
        if (state.tag !== null && state.tag !== "?") {
          state.dump = "!<" + state.tag + "> " + state.dump;
        }
      }
      return true;
    }
    function getDuplicateReferences(object, state) {
      var objects = [], duplicatesIndexes = [], index, length;
      inspectNode(object, objects, duplicatesIndexes);
      for (index = 0, length = duplicatesIndexes.length; index < length; index += 1) {
        state.duplicates.push(objects[duplicatesIndexes[index]]);
      }
      state.usedDuplicates = new Array(length);
    }
    function inspectNode(object, objects, duplicatesIndexes) {
      var objectKeyList, index, length;
      if (object !== null && typeof object === "object") {
        index = objects.indexOf(object);
        if (index !== -1) {
          if (duplicatesIndexes.indexOf(index) === -1) {
            duplicatesIndexes.push(index);
          }
        } else {
          objects.push(object);
          if (Array.isArray(object)) {
            for (index = 0, length = object.length; index < length; index += 1) {
              inspectNode(object[index], objects, duplicatesIndexes);
            }
          } else {
            objectKeyList = Object.keys(object);
            for (index = 0, length = objectKeyList.length; index < length; index += 1) {
              inspectNode(object[objectKeyList[index]], objects, duplicatesIndexes);
            }
          }
        }
      }
    }
    function dump(input, options2) {
      options2 = options2 || {};
      var state = new State(options2);
      if (!state.noRefs) getDuplicateReferences(input, state);
      if (writeNode(state, 0, input, true, true)) return state.dump + "\n";
      return "";
    }
    function safeDump(input, options2) {
      return dump(input, common.extend({ schema: DEFAULT_SAFE_SCHEMA }, options2));
    }
    module2.exports.dump = dump;
    module2.exports.safeDump = safeDump;
  }
});

// node_modules/js-yaml/lib/js-yaml.js
var require_js_yaml = __commonJS({
  "node_modules/js-yaml/lib/js-yaml.js"(exports2, module2) {
    "use strict";
    var loader = require_loader();
    var dumper = require_dumper();
    function deprecated(name) {
      return function() {
        throw new Error("Function " + name + " is deprecated and cannot be used.");
      };
    }
    module2.exports.Type = require_type();
    module2.exports.Schema = require_schema();
    module2.exports.FAILSAFE_SCHEMA = require_failsafe();
    module2.exports.JSON_SCHEMA = require_json();
    module2.exports.CORE_SCHEMA = require_core();
    module2.exports.DEFAULT_SAFE_SCHEMA = require_default_safe();
    module2.exports.DEFAULT_FULL_SCHEMA = require_default_full();
    module2.exports.load = loader.load;
    module2.exports.loadAll = loader.loadAll;
    module2.exports.safeLoad = loader.safeLoad;
    module2.exports.safeLoadAll = loader.safeLoadAll;
    module2.exports.dump = dumper.dump;
    module2.exports.safeDump = dumper.safeDump;
    module2.exports.YAMLException = require_exception();
    module2.exports.MINIMAL_SCHEMA = require_failsafe();
    module2.exports.SAFE_SCHEMA = require_default_safe();
    module2.exports.DEFAULT_SCHEMA = require_default_full();
    module2.exports.scan = deprecated("scan");
    module2.exports.parse = deprecated("parse");
    module2.exports.compose = deprecated("compose");
    module2.exports.addConstructor = deprecated("addConstructor");
  }
});

// node_modules/js-yaml/index.js
var require_js_yaml2 = __commonJS({
  "node_modules/js-yaml/index.js"(exports2, module2) {
    "use strict";
    var yaml2 = require_js_yaml();
    module2.exports = yaml2;
  }
});

// node_modules/gray-matter/lib/engines.js
var require_engines = __commonJS({
  "node_modules/gray-matter/lib/engines.js"(exports, module) {
    "use strict";
    var yaml = require_js_yaml2();
    var engines = exports = module.exports;
    engines.yaml = {
      parse: yaml.safeLoad.bind(yaml),
      stringify: yaml.safeDump.bind(yaml)
    };
    engines.json = {
      parse: JSON.parse.bind(JSON),
      stringify: function(obj, options2) {
        const opts = Object.assign({ replacer: null, space: 2 }, options2);
        return JSON.stringify(obj, opts.replacer, opts.space);
      }
    };
    engines.javascript = {
      parse: function parse(str, options, wrap) {
        try {
          if (wrap !== false) {
            str = "(function() {\nreturn " + str.trim() + ";\n}());";
          }
          return eval(str) || {};
        } catch (err) {
          if (wrap !== false && /(unexpected|identifier)/i.test(err.message)) {
            return parse(str, options, false);
          }
          throw new SyntaxError(err);
        }
      },
      stringify: function() {
        throw new Error("stringifying JavaScript is not supported");
      }
    };
  }
});

// node_modules/strip-bom-string/index.js
var require_strip_bom_string = __commonJS({
  "node_modules/strip-bom-string/index.js"(exports2, module2) {
    "use strict";
    module2.exports = function(str2) {
      if (typeof str2 === "string" && str2.charAt(0) === "\uFEFF") {
        return str2.slice(1);
      }
      return str2;
    };
  }
});

// node_modules/gray-matter/lib/utils.js
var require_utils2 = __commonJS({
  "node_modules/gray-matter/lib/utils.js"(exports2) {
    "use strict";
    var stripBom = require_strip_bom_string();
    var typeOf = require_kind_of();
    exports2.define = function(obj, key, val) {
      Reflect.defineProperty(obj, key, {
        enumerable: false,
        configurable: true,
        writable: true,
        value: val
      });
    };
    exports2.isBuffer = function(val) {
      return typeOf(val) === "buffer";
    };
    exports2.isObject = function(val) {
      return typeOf(val) === "object";
    };
    exports2.toBuffer = function(input) {
      return typeof input === "string" ? Buffer.from(input) : input;
    };
    exports2.toString = function(input) {
      if (exports2.isBuffer(input)) return stripBom(String(input));
      if (typeof input !== "string") {
        throw new TypeError("expected input to be a string or buffer");
      }
      return stripBom(input);
    };
    exports2.arrayify = function(val) {
      return val ? Array.isArray(val) ? val : [val] : [];
    };
    exports2.startsWith = function(str2, substr, len) {
      if (typeof len !== "number") len = substr.length;
      return str2.slice(0, len) === substr;
    };
  }
});

// node_modules/gray-matter/lib/defaults.js
var require_defaults = __commonJS({
  "node_modules/gray-matter/lib/defaults.js"(exports2, module2) {
    "use strict";
    var engines2 = require_engines();
    var utils = require_utils2();
    module2.exports = function(options2) {
      const opts = Object.assign({}, options2);
      opts.delimiters = utils.arrayify(opts.delims || opts.delimiters || "---");
      if (opts.delimiters.length === 1) {
        opts.delimiters.push(opts.delimiters[0]);
      }
      opts.language = (opts.language || opts.lang || "yaml").toLowerCase();
      opts.engines = Object.assign({}, engines2, opts.parsers, opts.engines);
      return opts;
    };
  }
});

// node_modules/gray-matter/lib/engine.js
var require_engine = __commonJS({
  "node_modules/gray-matter/lib/engine.js"(exports2, module2) {
    "use strict";
    module2.exports = function(name, options2) {
      let engine = options2.engines[name] || options2.engines[aliase(name)];
      if (typeof engine === "undefined") {
        throw new Error('gray-matter engine "' + name + '" is not registered');
      }
      if (typeof engine === "function") {
        engine = { parse: engine };
      }
      return engine;
    };
    function aliase(name) {
      switch (name.toLowerCase()) {
        case "js":
        case "javascript":
          return "javascript";
        case "coffee":
        case "coffeescript":
        case "cson":
          return "coffee";
        case "yaml":
        case "yml":
          return "yaml";
        default: {
          return name;
        }
      }
    }
  }
});

// node_modules/gray-matter/lib/stringify.js
var require_stringify = __commonJS({
  "node_modules/gray-matter/lib/stringify.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var getEngine = require_engine();
    var defaults = require_defaults();
    module2.exports = function(file, data, options2) {
      if (data == null && options2 == null) {
        switch (typeOf(file)) {
          case "object":
            data = file.data;
            options2 = {};
            break;
          case "string":
            return file;
          default: {
            throw new TypeError("expected file to be a string or object");
          }
        }
      }
      const str2 = file.content;
      const opts = defaults(options2);
      if (data == null) {
        if (!opts.data) return file;
        data = opts.data;
      }
      const language = file.language || opts.language;
      const engine = getEngine(language, opts);
      if (typeof engine.stringify !== "function") {
        throw new TypeError('expected "' + language + '.stringify" to be a function');
      }
      data = Object.assign({}, file.data, data);
      const open3 = opts.delimiters[0];
      const close = opts.delimiters[1];
      const matter2 = engine.stringify(data, options2).trim();
      let buf = "";
      if (matter2 !== "{}") {
        buf = newline(open3) + newline(matter2) + newline(close);
      }
      if (typeof file.excerpt === "string" && file.excerpt !== "") {
        if (str2.indexOf(file.excerpt.trim()) === -1) {
          buf += newline(file.excerpt) + newline(close);
        }
      }
      return buf + newline(str2);
    };
    function newline(str2) {
      return str2.slice(-1) !== "\n" ? str2 + "\n" : str2;
    }
  }
});

// node_modules/gray-matter/lib/excerpt.js
var require_excerpt = __commonJS({
  "node_modules/gray-matter/lib/excerpt.js"(exports2, module2) {
    "use strict";
    var defaults = require_defaults();
    module2.exports = function(file, options2) {
      const opts = defaults(options2);
      if (file.data == null) {
        file.data = {};
      }
      if (typeof opts.excerpt === "function") {
        return opts.excerpt(file, opts);
      }
      const sep = file.data.excerpt_separator || opts.excerpt_separator;
      if (sep == null && (opts.excerpt === false || opts.excerpt == null)) {
        return file;
      }
      const delimiter = typeof opts.excerpt === "string" ? opts.excerpt : sep || opts.delimiters[0];
      const idx = file.content.indexOf(delimiter);
      if (idx !== -1) {
        file.excerpt = file.content.slice(0, idx);
      }
      return file;
    };
  }
});

// node_modules/gray-matter/lib/to-file.js
var require_to_file = __commonJS({
  "node_modules/gray-matter/lib/to-file.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var stringify = require_stringify();
    var utils = require_utils2();
    module2.exports = function(file) {
      if (typeOf(file) !== "object") {
        file = { content: file };
      }
      if (typeOf(file.data) !== "object") {
        file.data = {};
      }
      if (file.contents && file.content == null) {
        file.content = file.contents;
      }
      utils.define(file, "orig", utils.toBuffer(file.content));
      utils.define(file, "language", file.language || "");
      utils.define(file, "matter", file.matter || "");
      utils.define(file, "stringify", function(data, options2) {
        if (options2 && options2.language) {
          file.language = options2.language;
        }
        return stringify(file, data, options2);
      });
      file.content = utils.toString(file.content);
      file.isEmpty = false;
      file.excerpt = "";
      return file;
    };
  }
});

// node_modules/gray-matter/lib/parse.js
var require_parse2 = __commonJS({
  "node_modules/gray-matter/lib/parse.js"(exports2, module2) {
    "use strict";
    var getEngine = require_engine();
    var defaults = require_defaults();
    module2.exports = function(language, str2, options2) {
      const opts = defaults(options2);
      const engine = getEngine(language, opts);
      if (typeof engine.parse !== "function") {
        throw new TypeError('expected "' + language + '.parse" to be a function');
      }
      return engine.parse(str2, opts);
    };
  }
});

// node_modules/gray-matter/index.js
var require_gray_matter = __commonJS({
  "node_modules/gray-matter/index.js"(exports2, module2) {
    "use strict";
    var fs = __require("fs");
    var sections = require_section_matter();
    var defaults = require_defaults();
    var stringify = require_stringify();
    var excerpt = require_excerpt();
    var engines2 = require_engines();
    var toFile = require_to_file();
    var parse2 = require_parse2();
    var utils = require_utils2();
    function matter2(input, options2) {
      if (input === "") {
        return { data: {}, content: input, excerpt: "", orig: input };
      }
      let file = toFile(input);
      const cached2 = matter2.cache[file.content];
      if (!options2) {
        if (cached2) {
          file = Object.assign({}, cached2);
          file.orig = cached2.orig;
          return file;
        }
        matter2.cache[file.content] = file;
      }
      return parseMatter(file, options2);
    }
    function parseMatter(file, options2) {
      const opts = defaults(options2);
      const open3 = opts.delimiters[0];
      const close = "\n" + opts.delimiters[1];
      let str2 = file.content;
      if (opts.language) {
        file.language = opts.language;
      }
      const openLen = open3.length;
      if (!utils.startsWith(str2, open3, openLen)) {
        excerpt(file, opts);
        return file;
      }
      if (str2.charAt(openLen) === open3.slice(-1)) {
        return file;
      }
      str2 = str2.slice(openLen);
      const len = str2.length;
      const language = matter2.language(str2, opts);
      if (language.name) {
        file.language = language.name;
        str2 = str2.slice(language.raw.length);
      }
      let closeIndex = str2.indexOf(close);
      if (closeIndex === -1) {
        closeIndex = len;
      }
      file.matter = str2.slice(0, closeIndex);
      const block = file.matter.replace(/^\s*#[^\n]+/gm, "").trim();
      if (block === "") {
        file.isEmpty = true;
        file.empty = file.content;
        file.data = {};
      } else {
        file.data = parse2(file.language, file.matter, opts);
      }
      if (closeIndex === len) {
        file.content = "";
      } else {
        file.content = str2.slice(closeIndex + close.length);
        if (file.content[0] === "\r") {
          file.content = file.content.slice(1);
        }
        if (file.content[0] === "\n") {
          file.content = file.content.slice(1);
        }
      }
      excerpt(file, opts);
      if (opts.sections === true || typeof opts.section === "function") {
        sections(file, opts.section);
      }
      return file;
    }
    matter2.engines = engines2;
    matter2.stringify = function(file, data, options2) {
      if (typeof file === "string") file = matter2(file, options2);
      return stringify(file, data, options2);
    };
    matter2.read = function(filepath, options2) {
      const str2 = fs.readFileSync(filepath, "utf8");
      const file = matter2(str2, options2);
      file.path = filepath;
      return file;
    };
    matter2.test = function(str2, options2) {
      return utils.startsWith(str2, defaults(options2).delimiters[0]);
    };
    matter2.language = function(str2, options2) {
      const opts = defaults(options2);
      const open3 = opts.delimiters[0];
      if (matter2.test(str2)) {
        str2 = str2.slice(open3.length);
      }
      const language = str2.slice(0, str2.search(/\r?\n/));
      return {
        raw: language,
        name: language ? language.trim() : ""
      };
    };
    matter2.cache = {};
    matter2.clearCache = function() {
      matter2.cache = {};
    };
    module2.exports = matter2;
  }
});

// src/lib/memory/frontmatter-schema.ts
function scalarText(value) {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return "";
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
  }
  return String(value);
}
function describeType(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a date";
  if (value instanceof Uint8Array) return "binary data";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return "text";
  return `a ${typeof value}`;
}
function readField(schema, expected, value) {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const custom2 = result.error.issues.flatMap((i) => i.code === "invalid_union" ? i.unionErrors.flatMap((e) => e.issues) : [i]).find((i) => i.code === "custom" || i.code === "invalid_string");
  return { ok: false, problem: custom2 !== void 0 && typeof value === "string" ? custom2.message : `expected ${expected}, got ${describeType(value)}` };
}
function readTags(value) {
  const problems = [];
  let items;
  if (typeof value === "string") items = value.split(",");
  else if (typeof value === "number" || typeof value === "boolean" || value instanceof Date) {
    items = [value];
    problems.push(`expected a list or comma-separated text, got ${describeType(value)}; read as one tag`);
  } else if (Array.isArray(value)) items = value;
  else return { tags: [], problems: [`expected a list or comma-separated text, got ${describeType(value)}`] };
  const tags = [];
  let dropped = 0;
  for (const item of items) {
    const parsed = scalar.safeParse(item);
    if (!parsed.success) {
      dropped += 1;
      continue;
    }
    const t = scalarText(parsed.data).trim().replace(/^#+/, "").trim();
    if (t !== "" && !tags.includes(t)) tags.push(t);
  }
  if (dropped > 0) problems.push(`${dropped} item(s) that are not text were left out`);
  return { tags, problems };
}
var scalar, text, numericText, rating, BOOL_WORDS, bool2, source, timeText, FIELD_SCHEMAS, METADATA_SCHEMAS;
var init_frontmatter_schema = __esm({
  "src/lib/memory/frontmatter-schema.ts"() {
    "use strict";
    init_v3();
    scalar = external_exports.union([external_exports.string(), external_exports.number().finite(), external_exports.boolean(), external_exports.date()]);
    text = scalar.transform((v) => scalarText(v).trim());
    numericText = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:\s*\/\s*10)?$/;
    rating = external_exports.union([
      external_exports.number().finite(),
      external_exports.string().trim().regex(numericText, 'expected a number such as 7 or "7.5"').transform((s) => Number(s.replace(/\s*\/\s*10$/, "")))
    ]);
    BOOL_WORDS = { true: true, yes: true, on: true, "1": true, false: false, no: false, off: false, "0": false };
    bool2 = external_exports.union([
      external_exports.boolean(),
      external_exports.string().trim().toLowerCase().refine((s) => s in BOOL_WORDS, "expected true or false").transform((s) => BOOL_WORDS[s] === true),
      external_exports.number().refine((n) => n === 0 || n === 1, "expected true or false").transform((n) => n === 1)
    ]);
    source = external_exports.string().trim().toLowerCase().refine((s) => s === "explicit" || s === "implicit", "expected explicit or implicit").transform((s) => s);
    timeText = external_exports.union([external_exports.string(), external_exports.date(), external_exports.number().finite()]).transform((v) => scalarText(v).trim());
    FIELD_SCHEMAS = {
      title: { schema: text, expected: "text" },
      date: { schema: timeText, expected: "a date" },
      created: { schema: timeText, expected: "a date" },
      group_id: { schema: text, expected: "text" },
      sync: { schema: bool2, expected: "true or false" },
      private: { schema: bool2, expected: "true or false" },
      name: { schema: text, expected: "text" },
      description: { schema: text, expected: "text" },
      type: { schema: text, expected: "text" },
      pinned: { schema: bool2, expected: "true or false" },
      modified: { schema: timeText, expected: "a date" },
      capture_type: { schema: text, expected: "text" },
      timestamp: { schema: timeText, expected: "a date/time" },
      rating: { schema: rating, expected: "a number" },
      source: { schema: source, expected: "explicit or implicit" },
      auto_captured: { schema: bool2, expected: "true or false" },
      session_id: { schema: text, expected: "text" },
      executor: { schema: text, expected: "text" },
      agent_completion: { schema: text, expected: "text" }
    };
    METADATA_SCHEMAS = {
      type: { schema: text, expected: "text" },
      pinned: { schema: bool2, expected: "true or false" }
    };
  }
});

// src/lib/memory/safe-copy.ts
function safeCopy(value, path, depth, st) {
  st.nodes += 1;
  if (st.nodes > st.limit) {
    st.tooLarge = true;
    return void 0;
  }
  if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number") return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof Uint8Array) {
    st.warnings.push(`${path}: binary value left out`);
    return void 0;
  }
  if (typeof value !== "object") return void 0;
  if (depth >= MAX_DEPTH2 || st.stack.has(value)) {
    st.warnings.push(`${path}: nested too deeply (or refers to itself); left out`);
    return void 0;
  }
  st.stack.add(value);
  try {
    if (Array.isArray(value)) {
      const out2 = [];
      for (let i = 0; i < value.length && !st.tooLarge; i += 1) {
        const v = safeCopy(value[i], `${path}[${i}]`, depth + 1, st);
        if (v !== void 0) out2.push(v);
      }
      return out2;
    }
    const out = /* @__PURE__ */ Object.create(null);
    for (const key of Object.keys(value)) {
      if (st.tooLarge) break;
      const keyPath = path === "" ? key : `${path}.${key}`;
      if (RESERVED_KEYS.has(key)) {
        st.warnings.push(`${keyPath}: reserved key name ignored`);
        continue;
      }
      const v = safeCopy(value[key], keyPath, depth + 1, st);
      if (v !== void 0) out[key] = v;
    }
    return out;
  } finally {
    st.stack.delete(value);
  }
}
function copyFields(data, warnings) {
  const fields = /* @__PURE__ */ Object.create(null);
  let total = 0;
  for (const key of Object.keys(data)) {
    if (RESERVED_KEYS.has(key)) {
      warnings.push(`${key}: reserved key name ignored`);
      continue;
    }
    const value = data[key];
    const isScalar = value === null || typeof value !== "object" || value instanceof Date;
    const limit = isScalar ? 1 : Math.min(MAX_NODES_PER_KEY, MAX_NODES_TOTAL - total);
    const st = { nodes: 0, limit, tooLarge: false, warnings: [], stack: /* @__PURE__ */ new Set() };
    const copied = limit > 0 ? safeCopy(value, key, 1, st) : void 0;
    total += st.nodes;
    if (limit <= 0 || st.tooLarge) {
      warnings.push(`${key}: value is too large (over ${MAX_NODES_PER_KEY} items, or the frontmatter over ${MAX_NODES_TOTAL}); left out`);
      continue;
    }
    warnings.push(...st.warnings);
    if (copied !== void 0) fields[key] = copied;
  }
  return fields;
}
function toPlain(value) {
  if (value instanceof Date) return scalarText(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === "object") {
    const out = /* @__PURE__ */ Object.create(null);
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v);
    return out;
  }
  return value;
}
function isMapping(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date);
}
var RESERVED_KEYS, MAX_NODES_PER_KEY, MAX_NODES_TOTAL, MAX_DEPTH2;
var init_safe_copy = __esm({
  "src/lib/memory/safe-copy.ts"() {
    "use strict";
    init_frontmatter_schema();
    RESERVED_KEYS = /* @__PURE__ */ new Set(["__proto__", "constructor", "prototype"]);
    MAX_NODES_PER_KEY = 1e4;
    MAX_NODES_TOTAL = 1e5;
    MAX_DEPTH2 = 32;
  }
});

// src/lib/memory/title.ts
import { basename as basename4 } from "node:path";
function oneLine2(s) {
  return s.replace(/\s+/g, " ").trim();
}
function titleFromBody(body) {
  let heading;
  let fence;
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf("\n", start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end);
    start = end + 1;
    const f = FENCE2.exec(line);
    if (f?.[1] !== void 0) {
      if (fence === void 0) fence = f[1][0];
      else if (f[1][0] === fence) fence = void 0;
      continue;
    }
    if (fence !== void 0) continue;
    const t = TITLE_LINE.exec(line);
    if (t?.[1] !== void 0 && oneLine2(t[1]) !== "") return oneLine2(t[1]);
    if (heading === void 0) {
      const h = HEADING2.exec(line);
      if (h?.[1] !== void 0 && oneLine2(h[1]) !== "") heading = oneLine2(h[1]);
    }
    if (end === body.length) break;
  }
  return heading;
}
function humanizeSlug(slug) {
  const words2 = slug.replace(/[-_]+/g, " ");
  return words2.charAt(0).toUpperCase() + words2.slice(1);
}
function titleFromPath(relPath) {
  const base = basename4(relPath.replace(/\\/g, "/"));
  const stem = base.includes(".") && !base.startsWith(".") ? base.slice(0, base.lastIndexOf(".")) : base;
  return oneLine2(stem.replace(/[_-]+/g, " ")) || base || "Untitled memory";
}
var TITLE_LINE, HEADING2, FENCE2;
var init_title = __esm({
  "src/lib/memory/title.ts"() {
    "use strict";
    TITLE_LINE = /^[ \t]*\*\*Title:?\*\*:?[ \t]*(.+?)[ \t]*$/i;
    HEADING2 = /^[ \t]{0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
    FENCE2 = /^[ \t]{0,3}(`{3,}|~{3,})/;
  }
});

// src/lib/memory/yaml.ts
function loadYamlSafely(source2) {
  if (jsYaml.DEFAULT_SAFE_SCHEMA !== void 0 && typeof jsYaml.safeLoad === "function") {
    return jsYaml.safeLoad(source2, { schema: jsYaml.DEFAULT_SAFE_SCHEMA });
  }
  return jsYaml.load(source2, { schema: jsYaml.DEFAULT_SCHEMA });
}
function quoteColonValues(block) {
  const lines = block.split("\n");
  const changed = [];
  for (let i = 0; i < lines.length; i += 1) {
    const m = PLAIN_PAIR.exec(lines[i] ?? "");
    if (m === null) continue;
    const value = (m[2] ?? "").trimEnd();
    if (!/:(?:[ \t]|$)/.test(value)) continue;
    lines[i] = `${m[1]}: ${JSON.stringify(value)}`;
    changed.push(i + 1);
  }
  return { text: lines.join("\n"), lines: changed };
}
function yamlEngine(warnings) {
  return {
    parse: (block) => {
      try {
        return loadYamlSafely(block);
      } catch (error) {
        const repaired = quoteColonValues(block);
        if (repaired.lines.length === 0) throw error;
        let data;
        try {
          data = loadYamlSafely(repaired.text);
        } catch {
          throw error;
        }
        warnings.push(`frontmatter line ${repaired.lines.join(", ")}: a value containing ": " was read as text (quote it to make the YAML valid)`);
        return data;
      }
    }
  };
}
function matterOptions(warnings) {
  return {
    excerpt: false,
    language: "yaml",
    engines: {
      yaml: yamlEngine(warnings),
      json: { parse: (s) => JSON.parse(s) },
      js: refuse("js"),
      javascript: refuse("javascript"),
      coffee: refuse("coffee"),
      coffeescript: refuse("coffeescript"),
      cson: refuse("cson")
    }
  };
}
function yamlErrorMessage(error) {
  const e = error;
  if (typeof e.reason === "string" && e.mark !== void 0 && typeof e.mark.line === "number") {
    return `YAML error in frontmatter: ${e.reason} at line ${e.mark.line + 1}, column ${e.mark.column + 1}`;
  }
  if (error instanceof SyntaxError) return `JSON error in frontmatter: ${error.message}`;
  const first = typeof e.message === "string" ? e.message.split("\n")[0] : String(error);
  return `frontmatter error: ${first}`;
}
var jsYamlModule, jsYaml, JsFrontmatterError, refuse, JS_LANGUAGES, ALLOWED_LANGUAGES, PLAIN_PAIR;
var init_yaml = __esm({
  "src/lib/memory/yaml.ts"() {
    "use strict";
    jsYamlModule = __toESM(require_js_yaml2(), 1);
    jsYaml = jsYamlModule.default ?? jsYamlModule;
    JsFrontmatterError = class extends Error {
      constructor(language) {
        super(`frontmatter language ${language} is not allowed (it would run code); use YAML`);
        this.language = language;
        this.name = "JsFrontmatterError";
      }
      language;
    };
    refuse = (language) => ({
      parse: () => {
        throw new JsFrontmatterError(language);
      }
    });
    JS_LANGUAGES = /* @__PURE__ */ new Set(["js", "javascript", "coffee", "coffeescript", "cson"]);
    ALLOWED_LANGUAGES = /* @__PURE__ */ new Set(["", "yaml", "yml", "json"]);
    PLAIN_PAIR = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:[ \t]+([^\s"'[\]{}|>&*!#%@`-].*)$/;
  }
});

// src/lib/memory/parse.ts
function inspectFrontmatter(text2) {
  if (!text2.startsWith("---") || text2.charAt(3) === "-") return { kind: "none" };
  const eol = text2.indexOf("\n");
  if (eol === -1) return { kind: "unclosed" };
  const language = text2.slice(3, eol).trim().toLowerCase();
  if (!/^[a-z0-9_+-]*$/.test(language)) return { kind: "none" };
  if (!ALLOWED_LANGUAGES.has(language)) return { kind: "language", language };
  if (text2.indexOf("\n---", eol) === -1) return { kind: "unclosed" };
  return { kind: "block" };
}
function parseMemoryFile(raw, relPath) {
  try {
    return parseUnsafe(raw, relPath);
  } catch (error) {
    return { ok: false, reason: "yaml", message: `could not parse the file: ${error instanceof Error ? error.message.split("\n")[0] : "unknown error"}` };
  }
}
function parseUnsafe(raw, relPath) {
  const decoded = decode(raw);
  if (!decoded.ok) return decoded;
  const text2 = decoded.text;
  if (text2.trim() === "") return { ok: false, reason: "empty", message: "the file is empty" };
  const warnings = [];
  let data = {};
  let body = text2;
  let hasFrontmatter = false;
  const split2 = inspectFrontmatter(text2);
  if (split2.kind === "language") {
    if (JS_LANGUAGES.has(split2.language)) {
      return { ok: false, reason: "js-frontmatter", message: `frontmatter language ${split2.language} is not allowed (it would run code); use YAML` };
    }
    return { ok: false, reason: "yaml", message: `frontmatter language "${split2.language.slice(0, 20)}" is not supported; use YAML` };
  }
  if (split2.kind === "unclosed") {
    warnings.push("the file starts with --- but the frontmatter is never closed with a --- line; the whole file is read as text");
  } else if (split2.kind === "block") {
    let file;
    try {
      file = (0, import_gray_matter.default)(text2, matterOptions(warnings));
    } catch (error) {
      if (error instanceof JsFrontmatterError) return { ok: false, reason: "js-frontmatter", message: error.message };
      return { ok: false, reason: "yaml", message: yamlErrorMessage(error) };
    }
    hasFrontmatter = true;
    data = file.data;
    body = file.content;
  }
  let fields = /* @__PURE__ */ Object.create(null);
  if (data === null || data === void 0) {
  } else if (!isMapping(data)) {
    warnings.push(`frontmatter is ${describeType(data)}, not a mapping of keys to values; ignored`);
  } else {
    fields = copyFields(data, warnings);
  }
  const fm = {};
  const extra = /* @__PURE__ */ Object.create(null);
  const rawTimes = {};
  let tags = [];
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    const lower = key.toLowerCase();
    if (lower === "tags") {
      if (fm.tags !== void 0) {
        warnings.push(`${key}: given twice; the first is used`);
        continue;
      }
      const r = readTags(value);
      for (const p of r.problems) warnings.push(`${key}: ${p}`);
      tags = r.tags;
      fm.tags = [...r.tags];
      continue;
    }
    if (lower === "metadata") {
      if (!isMapping(value)) {
        warnings.push(`${key}: expected a mapping, got ${describeType(value)}; ignored`);
        continue;
      }
      const meta = {};
      const rest = /* @__PURE__ */ Object.create(null);
      for (const [mk, mv] of Object.entries(value)) {
        if (mk === "type" || mk === "pinned") {
          const spec = METADATA_SCHEMAS[mk];
          const r = readField(spec.schema, spec.expected, mv);
          if (!r.ok) warnings.push(`${key}.${mk}: ${r.problem ?? "invalid"}; ignored`);
          else if (mk === "type" && typeof r.value === "string" && r.value !== "") meta.type = r.value;
          else if (mk === "pinned" && typeof r.value === "boolean") meta.pinned = r.value;
        } else rest[mk] = toPlain(mv);
      }
      fm.metadata = meta;
      if (Object.keys(rest).length > 0) extra[key] = rest;
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(FIELD_SCHEMAS, lower)) {
      const field = lower;
      if (fm[field] !== void 0) {
        warnings.push(`${key}: given twice; the first is used`);
        continue;
      }
      const spec = FIELD_SCHEMAS[field];
      const r = readField(spec.schema, spec.expected, value);
      if (!r.ok) {
        warnings.push(`${key}: ${r.problem ?? "invalid"}; ignored`);
        continue;
      }
      if (r.value === "" || r.value === void 0) continue;
      fm[field] = r.value;
      if (field === "timestamp" || field === "modified" || field === "date" || field === "created") rawTimes[field] = value;
      continue;
    }
    extra[key] = toPlain(value);
  }
  let time;
  let timeSource;
  for (const source2 of ["timestamp", "modified", "date", "created"]) {
    if (!(source2 in rawTimes)) continue;
    const parsed = parseTime(rawTimes[source2]);
    if (parsed.warning !== void 0) warnings.push(`${source2}: ${parsed.warning}`);
    if (time === void 0 && parsed.iso !== void 0) {
      time = parsed.iso;
      timeSource = source2;
    }
  }
  if (!hasFrontmatter || Object.keys(fields).length === 0) {
    if (body.trim() === "") return { ok: false, reason: "empty", message: "the file has no content (empty frontmatter and no text)" };
  }
  const slug = fm.name !== void 0 && /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(fm.name) ? fm.name : void 0;
  const title = fm.title ?? (slug === void 0 ? fm.name : titleFromBody(body) ?? humanizeSlug(slug)) ?? titleFromBody(body) ?? titleFromPath(relPath);
  const doc = {
    title: oneLine2(title) || titleFromPath(relPath),
    body,
    frontmatter: fm,
    extra,
    warnings,
    tags,
    hasFrontmatter
  };
  if (fm.private === true) doc.optOut = "private";
  else if (fm.sync === false) doc.optOut = "sync-false";
  if (time !== void 0) {
    doc.time = time;
    if (timeSource !== void 0) doc.timeSource = timeSource;
  }
  const type = fm.type ?? fm.metadata?.type ?? fm.capture_type;
  if (type !== void 0) doc.type = type;
  if (fm.group_id !== void 0) doc.groupId = fm.group_id;
  const pinned = fm.pinned ?? fm.metadata?.pinned;
  if (pinned !== void 0) doc.pinned = pinned;
  return { ok: true, data: doc };
}
var import_gray_matter, jsYamlModule2;
var init_parse = __esm({
  "src/lib/memory/parse.ts"() {
    "use strict";
    import_gray_matter = __toESM(require_gray_matter(), 1);
    jsYamlModule2 = __toESM(require_js_yaml2(), 1);
    init_frontmatter_schema();
    init_safe_copy();
    init_text();
    init_title();
    init_yaml();
    init_time();
    init_time();
  }
});

// src/lib/sync/prepare.ts
import { readFile as readFile3 } from "node:fs/promises";
async function readMemoryFile(absPath) {
  try {
    const raw = await readFile3(absPath);
    return { kind: "read", raw, hash: contentHashOf(raw) };
  } catch (error) {
    if (error.code === "ENOENT") return { kind: "gone" };
    return { kind: "failed", reason: `unreadable: ${error.message}` };
  }
}
function prepareEpisodes(config, file, fileId, origin, raw, hash) {
  const parsed = parseMemoryFile(raw, file.relPath);
  if (!parsed.ok) {
    if (parsed.reason === "empty") return { kind: "skipped", reason: `${parsed.reason}: ${parsed.message}`, retract: true };
    return { kind: "failed", reason: `${parsed.reason}: ${parsed.message}` };
  }
  const doc = parsed.data;
  if (doc.optOut !== void 0) return { kind: "skipped", reason: `opt-out: ${doc.optOut === "private" ? "private: true" : "sync: false"}`, retract: true };
  const loop = detectGraphitiOutput(doc.body);
  if (loop !== void 0) return { kind: "skipped", reason: `loop: ${loop}`, retract: true };
  let groupId;
  try {
    groupId = groupFor(config, file, doc.groupId);
  } catch (error) {
    return { kind: "failed", reason: `group-id: ${error.message}` };
  }
  const drafts = buildEpisodes({
    doc,
    source: file.source,
    kind: file.kind,
    relPath: file.relPath,
    mtimeMs: file.mtimeMs,
    ...file.project === void 0 ? {} : { project: file.project },
    groupId,
    maxChars: config.maxEpisodeChars,
    fileId,
    contentHash: hash,
    ...origin === void 0 ? {} : { origin }
  });
  if (drafts.length === 0) return { kind: "skipped", reason: "empty: nothing to send after removing private blocks and footers", retract: true };
  return { kind: "episodes", drafts, groupId, redactions: drafts.reduce((byKind, d) => addCounts(byKind, d.redactionsByKind), {}), warnings: doc.warnings.slice(0, 10) };
}
function groupFor(config, file, frontmatterGroup) {
  const override = config.sourceGroups[file.source] ?? config.sourceGroups[file.kind];
  let group = frontmatterGroup ?? override ?? config.groupId;
  if (group === "{project}") {
    if (file.project === void 0) group = config.groupId;
    else return projectGroupId(config.db, file.project);
  }
  return normalizeGroupId(config.db, group);
}
async function rebuildDrafts(config, sources, record, logger) {
  const source2 = sources.find((s) => s.name === record.source);
  if (source2 === void 0) return void 0;
  const read = await readMemoryFile(`${source2.root}/${record.relPath}`);
  if (read.kind !== "read") {
    if (read.kind === "failed") logger.warn("cannot re-read file for re-send", { id: record.id, error: read.reason });
    return void 0;
  }
  if (read.hash !== record.hash) return void 0;
  const origin = record.episodes[0] === void 0 ? source2.origin : parseMarker(record.episodes[0].marker)?.origin;
  const prepared = prepareEpisodes(config, record, record.fileId, origin, read.raw, read.hash);
  if (prepared.kind !== "episodes" || record.episodes.some((ref) => ref.groupId !== prepared.groupId)) return void 0;
  return draftsByMarker(prepared.drafts);
}
function draftsByMarker(drafts) {
  return new Map(drafts.map((d) => [d.marker, d]));
}
var init_prepare = __esm({
  "src/lib/sync/prepare.ts"() {
    "use strict";
    init_escape();
    init_episode();
    init_redact();
    init_hash();
    init_loop();
    init_parse();
  }
});

// src/lib/sync/plan.ts
import { existsSync as existsSync2 } from "node:fs";
async function planRun(input) {
  const { state, scan } = input;
  const verdicts = [];
  for (const file of scan.files) {
    const id = fileRecordId(file.source, file.relPath);
    verdicts.push({ id, verdict: await assessFile(input, id, file, state.files[id]) });
  }
  const plan = {
    put: [],
    drop: [],
    retire: [],
    outgoing: /* @__PURE__ */ new Map(),
    counts: { added: 0, updated: 0, deleted: 0, unchanged: 0, renamed: 0, redactions: {} },
    actions: [],
    problems: scan.problems.map((p) => ({ id: fileRecordId(p.source, p.relPath), reason: p.reason, message: p.message })),
    changed: false,
    events: []
  };
  const deleted = settleRemovals(input, verdicts, plan);
  for (const { id, verdict } of verdicts) foldVerdict(plan, id, verdict);
  for (const record of deleted) {
    const refs = [...record.episodes, ...record.superseded];
    if (input.config.deleteRemoved) plan.retire.push(...refs);
    plan.drop.push(record.id);
    plan.counts.deleted++;
    plan.actions.push({ id: record.id, action: "delete" });
    plan.events.push({ message: "file deleted", data: { id: record.id, episodes: refs.length, deleteEpisodes: input.config.deleteRemoved } });
  }
  return plan;
}
function applyPlan(state, plan) {
  for (const record of plan.put) state.files[record.id] = record;
  for (const id of plan.drop) delete state.files[id];
  state.orphans.push(...plan.retire);
}
async function assessFile(input, id, file, existing) {
  const { config, force, nowIso } = input;
  let base = existing;
  if (force && base !== void 0 && base.status === "failed" && base.episodes.length > 0) base = freshAttempts(base);
  const reset = base !== existing;
  const needsDrafts = base !== void 0 && base.episodes.some((e) => e.sentAt === void 0 && e.uuid === void 0);
  if (base !== void 0 && !force && !needsDrafts && base.mtimeMs === file.mtimeMs && base.size === file.size) {
    return { kind: "unchanged", ...reset ? { record: base } : {}, changed: false, redactions: {} };
  }
  const outcome = (status, reason, hash2, retract = false) => ({
    kind: "outcome",
    record: outcomeRecord(id, file, base, status, reason, nowIso, hash2, retract),
    status,
    reason
  });
  if (file.size > config.maxFileBytes) return outcome("skipped", `too-large: ${file.size} bytes is over MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES (${config.maxFileBytes})`);
  const read = await readMemoryFile(file.absPath);
  if (read.kind === "gone") return { kind: "gone", ...reset ? { record: base } : {} };
  if (read.kind === "failed") return outcome("failed", read.reason);
  const { raw, hash } = read;
  if (base !== void 0 && base.hash === hash && !needsDrafts) {
    base = { ...base, mtimeMs: file.mtimeMs, size: file.size };
    if (!force || base.status === "skipped" || base.status === "failed") return { kind: "unchanged", record: base, changed: true, redactions: {} };
  }
  const source2 = input.sources.find((s) => s.name === file.source);
  const fileId = source2 === void 0 ? base?.fileId ?? fileIdOf(file.source, file.relPath) : fileIdFor(source2, file.relPath);
  const prepared = prepareEpisodes(config, file, fileId, source2?.origin ?? config.origin, raw, hash);
  if (prepared.kind === "skipped") return outcome("skipped", prepared.reason, hash, prepared.retract);
  if (prepared.kind === "failed") return outcome("failed", prepared.reason, hash);
  const { drafts, groupId, redactions } = prepared;
  if (base !== void 0 && base.hash === hash && base.episodes.length === drafts.length && base.episodes.every((e) => e.groupId === groupId)) {
    if (base.episodes.every((e) => e.sentAt !== void 0)) return { kind: "unchanged", record: base, changed: true, redactions };
    return { kind: "send", record: base, drafts, redactions };
  }
  const record = {
    id,
    source: file.source,
    kind: file.kind,
    relPath: file.relPath,
    ...file.project === void 0 ? {} : { project: file.project },
    fileId,
    hash,
    mtimeMs: file.mtimeMs,
    size: file.size,
    status: "pending",
    episodes: drafts.map((d) => ({ marker: d.marker, name: d.name, groupId: d.groupId, part: d.part, parts: d.parts, resends: 0 })),
    superseded: base === void 0 ? [] : [...base.superseded, ...base.episodes],
    attempts: 0,
    redactions: totalRedactions(redactions),
    warnings: prepared.warnings,
    firstSeenAt: base?.firstSeenAt ?? nowIso,
    updatedAt: nowIso
  };
  const isNew = base === void 0 || base.episodes.length === 0 && base.superseded.length === 0 && base.hash === void 0;
  return { kind: "version", record, drafts, redactions, isNew };
}
function freshAttempts(record) {
  const copy = structuredClone(record);
  copy.status = "pending";
  copy.attempts = 0;
  for (const ref of copy.episodes) {
    ref.resends = 0;
    if (ref.uuid === void 0) {
      delete ref.sentAt;
      delete ref.queuedAt;
    }
  }
  return copy;
}
function outcomeRecord(id, file, base, status, reason, nowIso, hash, retract) {
  const record = base === void 0 ? {
    id,
    source: file.source,
    kind: file.kind,
    relPath: file.relPath,
    ...file.project === void 0 ? {} : { project: file.project },
    fileId: fileIdOf(file.source, file.relPath),
    mtimeMs: file.mtimeMs,
    size: file.size,
    status,
    episodes: [],
    superseded: [],
    attempts: 0,
    firstSeenAt: nowIso,
    updatedAt: nowIso
  } : { ...base };
  record.mtimeMs = file.mtimeMs;
  record.size = file.size;
  record.status = status;
  record.updatedAt = nowIso;
  if (hash !== void 0) record.hash = hash;
  if (status === "skipped") {
    record.skipReason = reason;
    delete record.lastError;
  } else {
    record.lastError = reason;
    delete record.skipReason;
  }
  if (retract && record.episodes.length > 0) {
    record.superseded = [...record.superseded, ...record.episodes];
    record.episodes = [];
  }
  return record;
}
function settleRemovals(input, verdicts, plan) {
  const seen = new Set(verdicts.map((v) => v.id));
  const scannedSources = new Set(input.sources.filter((s) => existsSync2(s.root)).map((s) => s.name));
  const shadowed = input.scan.problems.map((p) => fileRecordId(p.source, p.relPath));
  const byHash = /* @__PURE__ */ new Map();
  for (const entry of verdicts) if (entry.verdict.kind === "version" && entry.verdict.isNew) byHash.set(entry.verdict.record.hash, { entry, planned: entry.verdict });
  const deleted = [];
  for (const record of Object.values(input.state.files)) {
    if (seen.has(record.id) || !scannedSources.has(record.source)) continue;
    if (shadowed.some((prefix) => record.id === prefix || record.id.startsWith(`${prefix}/`))) continue;
    plan.changed = true;
    const renamedTo = record.hash === void 0 ? void 0 : byHash.get(record.hash);
    if (renamedTo !== void 0 && record.status !== "failed" && record.status !== "skipped") {
      byHash.delete(record.hash);
      const { entry, planned } = renamedTo;
      const moved = {
        ...record,
        id: planned.record.id,
        source: planned.record.source,
        kind: planned.record.kind,
        relPath: planned.record.relPath,
        ...planned.record.project === void 0 ? {} : { project: planned.record.project },
        mtimeMs: planned.record.mtimeMs,
        size: planned.record.size,
        updatedAt: input.nowIso
      };
      entry.verdict = { kind: "rename", record: moved, from: record.id, ...record.status === "pending" ? { drafts: planned.drafts } : {}, redactions: planned.redactions };
      plan.drop.push(record.id);
      continue;
    }
    deleted.push(record);
  }
  return deleted;
}
function foldVerdict(plan, id, verdict) {
  if (verdict.kind !== "unchanged" || verdict.changed) plan.changed = true;
  switch (verdict.kind) {
    case "gone":
      if (verdict.record !== void 0) plan.put.push(verdict.record);
      return;
    case "unchanged":
      if (verdict.record !== void 0) plan.put.push(verdict.record);
      plan.counts.unchanged++;
      addCounts(plan.counts.redactions, verdict.redactions);
      return;
    case "outcome":
      plan.put.push(verdict.record);
      plan.actions.push({ id, action: verdict.status === "skipped" ? "skip" : "fail" });
      if (verdict.status === "failed") plan.problems.push({ id, reason: verdict.reason.split(":")[0] ?? verdict.reason, message: verdict.reason });
      plan.events.push({ message: verdict.status === "skipped" ? "file skipped" : "file failed", data: { id, reason: verdict.reason } });
      return;
    case "send":
      plan.put.push(verdict.record);
      plan.outgoing.set(id, { record: verdict.record, drafts: draftsByMarker(verdict.drafts) });
      plan.actions.push({ id, action: "send" });
      addCounts(plan.counts.redactions, verdict.redactions);
      return;
    case "version":
      plan.put.push(verdict.record);
      plan.outgoing.set(id, { record: verdict.record, drafts: draftsByMarker(verdict.drafts) });
      plan.actions.push({ id, action: verdict.isNew ? "add" : "update" });
      plan.counts[verdict.isNew ? "added" : "updated"]++;
      addCounts(plan.counts.redactions, verdict.redactions);
      return;
    case "rename":
      plan.put.push(verdict.record);
      if (verdict.drafts !== void 0) plan.outgoing.set(id, { record: verdict.record, drafts: draftsByMarker(verdict.drafts) });
      plan.actions.push({ id, action: "rename" });
      plan.counts.renamed++;
      addCounts(plan.counts.redactions, verdict.redactions);
      plan.events.push({ message: "file renamed", data: { from: verdict.from, to: id } });
      return;
  }
}
var init_plan = __esm({
  "src/lib/sync/plan.ts"() {
    "use strict";
    init_redact();
    init_hash();
    init_sources();
    init_state();
    init_prepare();
  }
});

// src/lib/sync/retire.ts
async function deleteRetired(ctx) {
  const { state, options: options2 } = ctx;
  const current = /* @__PURE__ */ new Set();
  for (const record of Object.values(state.files)) for (const ref of record.episodes) if (ref.uuid !== void 0) current.add(ref.uuid);
  const remove = async (refs) => {
    const keep2 = [];
    for (const ref of refs) {
      if (ref.uuid !== void 0 && current.has(ref.uuid)) continue;
      if (ref.uuid === void 0 || !ctx.server.reachable || options2.signal?.aborted === true) {
        keep2.push(ref);
        continue;
      }
      try {
        await ctx.graphiti.deleteEpisode(ref.uuid, ref.groupId, options2.signal);
      } catch (error) {
        if (error instanceof McpError && error.retryable) ctx.server.markDown(error);
        ctx.logger.warn("delete_episode failed; will retry next run", { uuid: ref.uuid, error: error.message });
        keep2.push(ref);
      }
    }
    return keep2;
  };
  for (const record of Object.values(state.files)) {
    if (record.superseded.length === 0 || !currentVersionConfirmed(record)) continue;
    record.superseded = await remove(record.superseded);
    await ctx.ledger.journal([record]);
  }
  if (state.orphans.length > 0) {
    state.orphans = await remove(state.orphans);
    await ctx.ledger.journal([], true);
  }
}
function currentVersionConfirmed(record) {
  return record.episodes.every((ref) => ref.uuid !== void 0);
}
function retiredWaiting(ctx) {
  return Object.values(ctx.state.files).some((r) => r.superseded.some((s) => s.uuid === void 0)) || ctx.state.orphans.some((o) => o.uuid === void 0);
}
var init_retire = __esm({
  "src/lib/sync/retire.ts"() {
    "use strict";
    init_errors2();
  }
});

// src/lib/util/pool.ts
async function runPool(items, concurrency, worker, shouldStop = () => false) {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length && !shouldStop()) {
      const index = next++;
      await worker(items[index], index);
    }
  });
  await Promise.all(lanes);
}
var init_pool = __esm({
  "src/lib/util/pool.ts"() {
    "use strict";
  }
});

// src/lib/sync/status.ts
function refreshStatus(record, nowIso) {
  if (record.status === "failed" || record.status === "skipped") return;
  const previous = record.status;
  if (record.episodes.some((e) => e.sentAt === void 0)) record.status = "pending";
  else if (record.episodes.some((e) => e.uuid === void 0)) record.status = "queued";
  else {
    record.status = "confirmed";
    if (previous !== "confirmed") record.confirmedAt = nowIso;
  }
}
var init_status = __esm({
  "src/lib/sync/status.ts"() {
    "use strict";
  }
});

// src/lib/sync/send.ts
async function sendPending(ctx) {
  const { options: options2, server } = ctx;
  const iso = () => new Date(ctx.now()).toISOString();
  let jobs = [...ctx.outgoing.values()].filter((s) => s.record.status === "pending" && s.record.episodes.some((e) => e.sentAt === void 0));
  if (options2.max !== void 0) jobs = jobs.slice(0, Math.max(0, options2.max));
  const total = jobs.length;
  let done = 0;
  options2.onProgress?.({ done, total });
  const stopped = () => !server.reachable || options2.signal?.aborted === true;
  await runPool(
    jobs,
    ctx.config.concurrency,
    async ({ record, drafts }) => {
      for (const ref of record.episodes) {
        if (ref.sentAt !== void 0 || stopped()) continue;
        const draft = drafts.get(ref.marker);
        if (draft === void 0) continue;
        ref.sentAt = iso();
        record.status = "pending";
        await ctx.ledger.journal([record]);
        try {
          await ctx.graphiti.addMemory(
            { name: draft.name, episodeBody: draft.body, groupId: draft.groupId, source: "text", sourceDescription: draft.sourceDescription, referenceTime: draft.referenceTime },
            options2.signal
          );
          ref.queuedAt = iso();
          record.queuedAt = ref.queuedAt;
          delete record.lastError;
        } catch (error) {
          if (mayHaveArrived(error)) ref.queuedAt = iso();
          else delete ref.sentAt;
          onSendError(ctx, record, error);
        }
        refreshStatus(record, iso());
        record.updatedAt = iso();
        await ctx.ledger.journal([record]);
      }
      done++;
      options2.onProgress?.({ done, total, file: record.id });
    },
    stopped
  );
}
function onSendError(ctx, record, error) {
  const message = error instanceof Error ? error.message : String(error);
  record.lastError = message;
  if (error instanceof McpError && (error.retryable || error.kind === "aborted")) {
    if (error.kind !== "aborted") ctx.server.markDown(error);
    return;
  }
  record.attempts++;
  if (record.attempts >= MAX_SEND_ATTEMPTS) {
    record.status = "failed";
    ctx.problems.push({ id: record.id, reason: "rejected", message });
  }
  ctx.logger.warn("episode rejected by the server", { id: record.id, attempts: record.attempts, error: message });
}
function mayHaveArrived(error) {
  if (!(error instanceof McpError)) return false;
  if (error.kind === "timeout" || error.kind === "aborted") return true;
  if (error instanceof McpNetworkError) return !["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"].includes(error.code ?? "");
  return false;
}
var MAX_SEND_ATTEMPTS;
var init_send = __esm({
  "src/lib/sync/send.ts"() {
    "use strict";
    init_errors2();
    init_pool();
    init_status();
    MAX_SEND_ATTEMPTS = 3;
  }
});

// src/lib/sync/summary.ts
function statusCounts(ctx) {
  const names = new Set(ctx.sources.map((s) => s.name));
  return countByStatus(Object.values(ctx.state.files), (r) => names.has(r.source));
}
function summarize(ctx, plan) {
  const byStatus = statusCounts(ctx);
  const dryRun = ctx.options.dryRun === true;
  const { counts } = ctx;
  return {
    added: counts.added,
    updated: counts.updated,
    deleted: counts.deleted,
    unchanged: counts.unchanged,
    renamed: counts.renamed,
    adopted: counts.adopted,
    skipped: byStatus.skipped,
    failed: byStatus.failed,
    pending: byStatus.pending,
    queued: byStatus.queued,
    confirmed: byStatus.confirmed,
    resent: counts.resent,
    duplicatesRemoved: counts.duplicatesRemoved,
    listing: { requests: counts.listRequests, episodes: counts.listedEpisodes },
    redactions: totalRedactions(counts.redactions),
    redactionsByKind: { ...counts.redactions },
    problems: ctx.problems,
    serverReachable: ctx.server.reachable,
    ...ctx.server.error === void 0 ? {} : { serverError: ctx.server.error },
    dryRun,
    ...dryRun ? { plannedActions: plan.actions } : {}
  };
}
function isClean(summary) {
  return summary.failed === 0 && summary.pending === 0 && summary.serverReachable;
}
var init_summary = __esm({
  "src/lib/sync/summary.ts"() {
    "use strict";
    init_redact();
    init_state();
  }
});

// src/lib/sync/sync.ts
var sync_exports = {};
__export(sync_exports, {
  SyncError: () => SyncError,
  isClean: () => isClean,
  runSync: () => runSync
});
async function runSync(config, options2 = {}) {
  const logger = (options2.logger ?? nullLogger).child({ component: "sync" });
  const sources = filterSources(resolveSources(config), options2.source);
  if (options2.dryRun === true) {
    const { state } = await loadState(config.stateDir, { readOnly: true });
    return run({ config, options: options2, logger, sources, state, rebuilding: false, lock: void 0 });
  }
  return withLock(
    config.stateDir,
    async (lock) => {
      const loaded = await loadState(config.stateDir);
      if (loaded.recovered !== void 0) logger.warn("state file was corrupt; kept aside and rebuilding from the server", { ...loaded.recovered });
      return run({ config, options: options2, logger, sources, state: loaded.state, rebuilding: loaded.recovered !== void 0 || loaded.fresh, lock });
    },
    {
      timeoutMs: options2.lockTimeoutMs ?? 12e4,
      label: options2.lockLabel ?? "sync",
      ...options2.signal === void 0 ? {} : { signal: options2.signal },
      ...options2.onLockWait === void 0 ? {} : { onWait: (holder) => options2.onLockWait?.(describeOwner(holder)) }
    }
  );
}
async function run(input) {
  const { config, options: options2, logger, sources, state } = input;
  const now = options2.now ?? Date.now;
  const startedAt = now();
  const scan = await scanSources(sources, {
    exclude: config.exclude,
    maxFileBytes: config.maxFileBytes,
    ...options2.signal === void 0 ? {} : { signal: options2.signal }
  });
  const plan = await planRun({ config, state, scan, sources, force: options2.force === true, nowIso: new Date(now()).toISOString() });
  applyPlan(state, plan);
  for (const event of plan.events) logger.info(event.message, event.data);
  const ctx = {
    config,
    options: options2,
    logger,
    sources,
    state,
    ledger: new Ledger(config.stateDir, state, now, input.lock, input.lock === void 0),
    graphiti: void 0,
    server: new ServerHealth(logger),
    now,
    counts: { ...plan.counts, adopted: 0, resent: 0, duplicatesRemoved: 0, listRequests: 0, listedEpisodes: 0 },
    problems: plan.problems,
    outgoing: plan.outgoing
  };
  if (input.lock === void 0) return summarize(ctx, plan);
  let changed = plan.changed;
  try {
    if (needsServer(ctx, input.rebuilding)) {
      changed = true;
      ctx.graphiti = options2.graphiti ?? new GraphitiClient(config, { logger });
      const online = ctx;
      for (const ref of allParts2(state)) if (ref.sentAt !== void 0 && ref.uuid === void 0 && ref.queuedAt === void 0) ref.queuedAt = new Date(startedAt).toISOString();
      const plannedAdds = new Set(plan.actions.filter((a) => a.action === "add").map((a) => a.id));
      const sharedOrigins = new Set(Object.values(config.sharedSources));
      if (await reconcileWithGraph(online, { rebuilding: input.rebuilding, sharedOrigins, plannedAdds, ignoreBackoff: options2.force === true })) {
        await ctx.ledger.save();
        await sendPending(online);
        await deleteRetired(online);
        if ((options2.waitMs ?? 0) > 0 && ctx.server.reachable) await waitForConfirmation(online, { rebuilding: input.rebuilding, sharedOrigins, plannedAdds, ignoreBackoff: true }, options2.waitMs ?? 0);
      }
    }
  } finally {
    state.lastRun = { startedAt: new Date(startedAt).toISOString(), finishedAt: new Date(now()).toISOString(), summary: statusCounts(ctx), redactions: { ...ctx.counts.redactions } };
    if (changed) await ctx.ledger.save();
    else await ctx.ledger.journalLastRun();
    await ctx.ledger.close();
    if (options2.graphiti === void 0) await ctx.graphiti?.close().catch(() => void 0);
  }
  return summarize(ctx, plan);
}
function needsServer(ctx, rebuilding) {
  if (ctx.outgoing.size > 0 || ctx.state.orphans.length > 0 || Object.values(ctx.state.files).some((r) => r.superseded.length > 0 || r.episodes.some((e) => e.uuid === void 0))) return true;
  return waitingMarkers(ctx.state, rebuilding, new Set(Object.values(ctx.config.sharedSources))).size > 0;
}
function allParts2(state) {
  return [...Object.values(state.files).flatMap((r) => [...r.episodes, ...r.superseded]), ...state.orphans];
}
async function reconcileWithGraph(ctx, run2) {
  const listing = await fetchListing(ctx, run2);
  if (listing === void 0) return false;
  const { config, state, logger } = ctx;
  for (const listed of listing.values()) {
    ctx.counts.listRequests += listed.requests;
    ctx.counts.listedEpisodes += listed.listed;
  }
  const r = reconcile({ state, listing, now: ctx.now(), confirmMaxAgeMs: config.confirmMaxAgeMs, maxResends: config.maxResends, rebuilding: run2.rebuilding, sharedOrigins: run2.sharedOrigins });
  applyReconciliation(state, r, new Date(ctx.now()).toISOString());
  for (const c of r.confirmations) {
    if (!c.adopted) continue;
    ctx.counts.adopted++;
    if (run2.plannedAdds.delete(c.record.id)) ctx.counts.added--;
  }
  ctx.counts.duplicatesRemoved += r.duplicates.length;
  for (const { record, message } of r.drops) ctx.problems.push({ id: record.id, reason: "dropped", message });
  for (const { record, ref, evidence } of r.resends) {
    logger.warn("episode was dropped by the server; re-sending", { id: record.id, marker: ref.marker, evidence, resends: ref.resends - 1 });
    ctx.counts.resent++;
    if (ctx.outgoing.has(record.id)) continue;
    const drafts = await rebuildDrafts(config, ctx.sources, record, logger);
    if (drafts !== void 0) ctx.outgoing.set(record.id, { record, drafts });
  }
  const nowIso = new Date(ctx.now()).toISOString();
  for (const record of Object.values(state.files)) refreshStatus(record, nowIso);
  return true;
}
async function waitForConfirmation(ctx, run2, waitMs) {
  const deadline = ctx.now() + waitMs;
  let delay = 50;
  while (ctx.now() < deadline && ctx.server.reachable && ctx.options.signal?.aborted !== true) {
    const waiting = Object.values(ctx.state.files).some((r) => r.status === "queued" || r.status === "pending");
    if (!waiting && !retiredWaiting(ctx)) break;
    await sleep(Math.min(delay, Math.max(0, deadline - ctx.now())));
    delay = Math.min(delay * 2, 2e3);
    if (!await reconcileWithGraph(ctx, run2)) break;
    await sendPending(ctx);
    await deleteRetired(ctx);
  }
}
var init_sync = __esm({
  "src/lib/sync/sync.ts"() {
    "use strict";
    init_graphiti();
    init_sources();
    init_scan();
    init_lock();
    init_state();
    init_backoff();
    init_log();
    init_ledger();
    init_listing();
    init_plan();
    init_prepare();
    init_reconcile();
    init_retire();
    init_send();
    init_status();
    init_summary();
    init_types3();
    init_types3();
    init_summary();
  }
});

// src/lib/context/rank.ts
function words(text2) {
  return text2.replace(/_/g, " ");
}
function timeOf(...values) {
  for (const v of values) {
    if (v === void 0 || v === null || v === "") continue;
    const t = Date.parse(v);
    if (Number.isFinite(t)) return t;
  }
  return Number.NEGATIVE_INFINITY;
}
function isExpired(fact, now) {
  const n = now.getTime();
  for (const v of [fact.expired_at, fact.invalid_at]) {
    if (v === void 0 || v === null || v === "") continue;
    const t = Date.parse(v);
    if (Number.isFinite(t) && t <= n) return true;
  }
  return false;
}
function factTier(fact) {
  const text2 = `${words(fact.name ?? "")} ${fact.fact}`;
  if (STRONG.test(text2)) return 2;
  if (WEAK.test(text2)) return 1;
  return 0;
}
function nodeTier(node) {
  const labels = (node.labels ?? []).filter((l) => l !== "Entity").join(" ");
  if (STRONG_LABEL.test(labels) || STRONG.test(words(node.name))) return 2;
  if (STRONG.test(node.summary ?? "") || WEAK.test(`${words(node.name)} ${node.summary ?? ""}`)) return 1;
  return 0;
}
function normText(text2) {
  return text2.toLowerCase().replace(/\s+/g, " ").trim();
}
function rankFacts(facts, now) {
  const seenUuid = /* @__PURE__ */ new Set();
  const seenText = /* @__PURE__ */ new Set();
  const kept = [];
  facts.forEach((fact, index) => {
    if (typeof fact.fact !== "string" || fact.fact.trim() === "") return;
    if (seenUuid.has(fact.uuid)) return;
    seenUuid.add(fact.uuid);
    if (isExpired(fact, now)) return;
    const key = normText(fact.fact);
    if (seenText.has(key)) return;
    seenText.add(key);
    kept.push({ fact, tier: factTier(fact), time: timeOf(fact.valid_at, fact.created_at), index });
  });
  kept.sort((a, b) => b.tier - a.tier || cmpTime(b.time, a.time) || a.index - b.index);
  return kept.map((k) => k.fact);
}
function rankNodes(nodes) {
  const seenUuid = /* @__PURE__ */ new Set();
  const seenName = /* @__PURE__ */ new Set();
  const kept = [];
  nodes.forEach((node, index) => {
    if (typeof node.name !== "string" || node.name.trim() === "") return;
    if (seenUuid.has(node.uuid)) return;
    seenUuid.add(node.uuid);
    const key = normText(node.name);
    if (seenName.has(key)) return;
    seenName.add(key);
    kept.push({ node, tier: nodeTier(node), time: timeOf(node.created_at), index });
  });
  kept.sort((a, b) => b.tier - a.tier || cmpTime(b.time, a.time) || a.index - b.index);
  return kept.map((k) => k.node);
}
function cmpTime(a, b) {
  if (a === b) return 0;
  return a > b ? 1 : -1;
}
var STRONG, WEAK, STRONG_LABEL;
var init_rank = __esm({
  "src/lib/context/rank.ts"() {
    "use strict";
    STRONG = /\b(decid(?:e|ed|es|ing)|decisions?|chose|chosen|choose|architect(?:ure|ural)?|design(?:ed|s)?|conventions?)\b/i;
    WEAK = /\b(must|always|never|uses?|using|prefer(?:s|red|ence|ences)?|requires?|standard|policy|rules?)\b/i;
    STRONG_LABEL = /decision|architecture|design|convention|preference|procedure|requirement/i;
  }
});

// node_modules/@toon-format/toon/dist/index.mjs
function escapeString(value) {
  return value.replace(/\\/g, `\\\\`).replace(/"/g, `\\"`).replace(/\n/g, `\\n`).replace(/\r/g, `\\r`).replace(/\t/g, `\\t`).replace(/[\u0000-\u001F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
function isBooleanOrNullLiteral(token) {
  return token === "true" || token === "false" || token === "null";
}
function setOwnProperty(target, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true
    });
    return;
  }
  target[key] = value;
}
function isRawString(value) {
  return value instanceof RawString;
}
function normalizeValue(value) {
  if (value === null) return null;
  if (isRawString(value)) return value;
  if (typeof value === "object" && value !== null && "toJSON" in value && typeof value.toJSON === "function") {
    const next = value.toJSON();
    if (next !== value) return normalizeValue(next);
  }
  if (typeof value === "string") {
    assertNoLoneSurrogate(value, "string value");
    return value;
  }
  if (typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Object.is(value, -0)) return 0;
    if (!Number.isFinite(value)) return null;
    return value;
  }
  if (typeof value === "bigint") {
    if (value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) return Number(value);
    return value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return Array.from(value, normalizeValue);
  if (value instanceof Set) return Array.from(value).map(normalizeValue);
  if (value instanceof Map) return Object.fromEntries(Array.from(value, ([k, v]) => [String(k), normalizeValue(v)]));
  if (isPlainObject(value)) {
    const encodedValues = {};
    for (const key in value) if (Object.hasOwn(value, key)) {
      assertNoLoneSurrogate(key, "object key");
      setOwnProperty(encodedValues, key, normalizeValue(value[key]));
    }
    return encodedValues;
  }
  return null;
}
function assertNoLoneSurrogate(value, context) {
  if (!SURROGATE_PATTERN.test(value)) return;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 55296 || code > 57343) continue;
    const isHighSurrogate = code <= 56319;
    const next = value.charCodeAt(index + 1);
    if (isHighSurrogate && next >= 56320 && next <= 57343) {
      index++;
      continue;
    }
    throw new TypeError(`Cannot encode ${context} containing an unpaired surrogate U+${code.toString(16).toUpperCase()} at index ${index}`);
  }
}
function isJsonPrimitive(value) {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}
function isEncodablePrimitive(value) {
  return isJsonPrimitive(value) || isRawString(value);
}
function isJsonArray(value) {
  return Array.isArray(value);
}
function isJsonObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !isRawString(value);
}
function isEmptyObject(value) {
  return Object.keys(value).length === 0;
}
function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}
function isArrayOfPrimitives(value) {
  return value.length === 0 || value.every((item) => isEncodablePrimitive(item));
}
function isArrayOfArrays(value) {
  return value.length === 0 || value.every((item) => isJsonArray(item));
}
function isArrayOfObjects(value) {
  return value.length === 0 || value.every((item) => isJsonObject(item));
}
function assertValidDelimiter(delimiter) {
  if (!Object.values(DELIMITERS).includes(delimiter)) throw new TypeError(`Invalid delimiter ${JSON.stringify(delimiter)}. Valid delimiters are: comma (,), tab (\\t), pipe (|)`);
}
function isValidUnquotedKey(key) {
  return /^[A-Z_][\w.]*$/i.test(key);
}
function isSafeUnquoted(value, delimiter = DEFAULT_DELIMITER) {
  if (!value) return false;
  if (/^[ \t]|[ \t]$/.test(value)) return false;
  if (isBooleanOrNullLiteral(value) || isNumericLike(value)) return false;
  if (value.includes(":")) return false;
  if (value.includes('"') || value.includes("\\")) return false;
  if (/[[\]{}]/.test(value)) return false;
  if (/[\u0000-\u001F]/.test(value)) return false;
  if (value.includes(delimiter)) return false;
  if (value.startsWith("-")) return false;
  if (value.startsWith("#")) return false;
  return true;
}
function isNumericLike(value) {
  return NUMERIC_LIKE_PATTERN.test(value);
}
function encodePrimitive(value, delimiter) {
  if (isRawString(value)) return value.value;
  if (value === null) return NULL_LITERAL;
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return String(value);
  return encodeStringLiteral(value, delimiter);
}
function encodeStringLiteral(value, delimiter = DEFAULT_DELIMITER) {
  if (isSafeUnquoted(value, delimiter)) return value;
  return `"${escapeString(value)}"`;
}
function encodeKey(key) {
  if (isValidUnquotedKey(key)) return key;
  return `"${escapeString(key)}"`;
}
function encodeAndJoinPrimitives(values, delimiter = DEFAULT_DELIMITER) {
  return values.map((v) => encodePrimitive(v, delimiter)).join(delimiter);
}
function formatHeader(length, options2) {
  const key = options2?.key;
  const fields = options2?.fields;
  const delimiter = options2?.delimiter ?? ",";
  let header2 = "";
  if (key != null) header2 += encodeKey(key);
  header2 += `[${length}${options2?.keyed ? ":" : ""}${delimiter !== DEFAULT_DELIMITER ? delimiter : ""}]`;
  if (fields) header2 += `{${formatFieldSegment(fields, delimiter)}}`;
  header2 += ":";
  return header2;
}
function formatFieldSegment(fields, delimiter) {
  return fields.map((field) => encodeKey(field.name) + (field.children ? `{${formatFieldSegment(field.children, delimiter)}}` : "")).join(delimiter);
}
function extractTabularFields(rows) {
  if (rows.length === 0) return;
  const firstKeys = Object.keys(rows[0]);
  if (firstKeys.length === 0) return;
  for (const row of rows) {
    if (Object.keys(row).length !== firstKeys.length) return;
    for (const key of firstKeys) if (!Object.hasOwn(row, key)) return;
  }
  const fieldNodes = [];
  for (const key of firstKeys) {
    const fieldNode = classifyColumn(key, rows.map((row) => row[key]));
    if (!fieldNode) return;
    fieldNodes.push(fieldNode);
  }
  return fieldNodes;
}
function extractKeyedTabularFields(value) {
  const entryValues = Object.values(value);
  if (entryValues.length < 2) return;
  if (!entryValues.every((entryValue) => isJsonObject(entryValue) && !isEmptyObject(entryValue))) return;
  return extractTabularFields(entryValues);
}
function collectRowLeaves(row, fields) {
  const leaves = [];
  collectLeafValues(row, fields, leaves);
  return leaves;
}
function classifyColumn(name, values) {
  if (values.every((value) => isEncodablePrimitive(value))) return { name };
  if (!values.every((value) => isJsonObject(value) && !isEmptyObject(value))) return;
  const children = extractTabularFields(values);
  if (!children) return;
  return {
    name,
    children
  };
}
function collectLeafValues(row, fields, leaves) {
  for (const field of fields) {
    const value = row[field.name];
    if (field.children) collectLeafValues(value, field.children, leaves);
    else leaves.push(value);
  }
}
function* encodeJsonValue(value, options2, depth) {
  if (isEncodablePrimitive(value)) {
    const encodedPrimitive = typeof value === "string" && value.startsWith("\uFEFF") ? `"${escapeString(value)}"` : encodePrimitive(value, options2.delimiter);
    if (encodedPrimitive !== "") yield encodedPrimitive;
    return;
  }
  if (isJsonArray(value)) yield* encodeArrayLines(void 0, value, depth, options2);
  else if (isJsonObject(value)) {
    const keyedFields = extractKeyedTabularFields(value);
    if (keyedFields) {
      yield* encodeKeyedObjectLines(void 0, value, keyedFields, depth, options2);
      return;
    }
    yield* encodeObjectLines(value, depth, options2);
  }
}
function* encodeObjectLines(value, depth, options2) {
  for (const [key, val] of Object.entries(value)) yield* encodeKeyValuePairLines(key, val, depth, options2);
}
function* encodeKeyValuePairLines(key, value, depth, options2) {
  const encodedKey = encodeKey(key);
  if (isEncodablePrimitive(value)) yield indentedLine(depth, `${encodedKey}: ${encodePrimitive(value, options2.delimiter)}`, options2.indentSize);
  else if (isJsonArray(value)) yield* encodeArrayLines(key, value, depth, options2);
  else if (isJsonObject(value)) {
    const keyedFields = extractKeyedTabularFields(value);
    if (keyedFields) {
      yield* encodeKeyedObjectLines(key, value, keyedFields, depth, options2);
      return;
    }
    yield indentedLine(depth, `${encodedKey}:`, options2.indentSize);
    if (!isEmptyObject(value)) yield* encodeObjectLines(value, depth + 1, options2);
  }
}
function* encodeKeyedObjectLines(key, value, fields, depth, options2) {
  const entries = Object.entries(value);
  yield indentedLine(depth, formatHeader(entries.length, {
    key,
    fields,
    delimiter: options2.delimiter,
    keyed: true
  }), options2.indentSize);
  yield* encodeKeyedEntryRowsLines(entries, fields, depth + 1, options2);
}
function* encodeKeyedEntryRowsLines(entries, fields, depth, options2) {
  for (const [entryKey, entryValue] of entries) {
    const leaves = collectRowLeaves(entryValue, fields);
    yield indentedLine(depth, `${encodeKey(entryKey)}: ${encodeAndJoinPrimitives(leaves, options2.delimiter)}`, options2.indentSize);
  }
}
function* encodeArrayLines(key, value, depth, options2) {
  if (value.length === 0) {
    yield indentedLine(depth, key != null ? `${encodeKey(key)}: []` : "[]", options2.indentSize);
    return;
  }
  if (isArrayOfPrimitives(value)) {
    yield indentedLine(depth, encodeInlineArrayLine(value, options2.delimiter, key), options2.indentSize);
    return;
  }
  if (isArrayOfArrays(value)) {
    if (value.every((arr) => isArrayOfPrimitives(arr))) {
      yield* encodeArrayOfArraysAsListItemsLines(key, value, depth, options2);
      return;
    }
  }
  if (isArrayOfObjects(value)) {
    const fields = extractTabularFields(value);
    if (fields) yield* encodeArrayOfObjectsAsTabularLines(key, value, fields, depth, options2);
    else yield* encodeMixedArrayAsListItemsLines(key, value, depth, options2);
    return;
  }
  yield* encodeMixedArrayAsListItemsLines(key, value, depth, options2);
}
function* encodeArrayOfArraysAsListItemsLines(prefix, values, depth, options2) {
  yield indentedLine(depth, formatHeader(values.length, {
    key: prefix,
    delimiter: options2.delimiter
  }), options2.indentSize);
  for (const arr of values) if (isArrayOfPrimitives(arr)) {
    const arrayLine = encodeInlineArrayLine(arr, options2.delimiter);
    yield indentedListItem(depth + 1, arrayLine, options2.indentSize);
  }
}
function encodeInlineArrayLine(values, delimiter, prefix) {
  const header2 = formatHeader(values.length, {
    key: prefix,
    delimiter
  });
  const joinedValue = encodeAndJoinPrimitives(values, delimiter);
  if (values.length === 0) return header2;
  return `${header2} ${joinedValue}`;
}
function* encodeArrayOfObjectsAsTabularLines(prefix, rows, fields, depth, options2) {
  yield indentedLine(depth, formatHeader(rows.length, {
    key: prefix,
    fields,
    delimiter: options2.delimiter
  }), options2.indentSize);
  yield* writeTabularRowsLines(rows, fields, depth + 1, options2);
}
function* writeTabularRowsLines(rows, fields, depth, options2) {
  for (const row of rows) yield indentedLine(depth, encodeAndJoinPrimitives(collectRowLeaves(row, fields), options2.delimiter), options2.indentSize);
}
function* encodeMixedArrayAsListItemsLines(prefix, items, depth, options2) {
  yield indentedLine(depth, formatHeader(items.length, {
    key: prefix,
    delimiter: options2.delimiter
  }), options2.indentSize);
  for (const item of items) yield* encodeListItemValueLines(item, depth + 1, options2);
}
function* encodeObjectAsListItemLines(obj, depth, options2) {
  if (isEmptyObject(obj)) {
    yield indentedLine(depth, "-", options2.indentSize);
    return;
  }
  const entries = Object.entries(obj);
  const [firstKey, firstValue] = entries[0];
  const restEntries = entries.slice(1);
  if (isJsonArray(firstValue) && isArrayOfObjects(firstValue)) {
    const fields = extractTabularFields(firstValue);
    if (fields) {
      yield indentedListItem(depth, formatHeader(firstValue.length, {
        key: firstKey,
        fields,
        delimiter: options2.delimiter
      }), options2.indentSize);
      yield* writeTabularRowsLines(firstValue, fields, depth + 2, options2);
      if (restEntries.length > 0) yield* encodeObjectLines(Object.fromEntries(restEntries), depth + 1, options2);
      return;
    }
  }
  if (isJsonObject(firstValue)) {
    const keyedFields = extractKeyedTabularFields(firstValue);
    if (keyedFields) {
      const keyedEntries = Object.entries(firstValue);
      yield indentedListItem(depth, formatHeader(keyedEntries.length, {
        key: firstKey,
        fields: keyedFields,
        delimiter: options2.delimiter,
        keyed: true
      }), options2.indentSize);
      yield* encodeKeyedEntryRowsLines(keyedEntries, keyedFields, depth + 2, options2);
      if (restEntries.length > 0) yield* encodeObjectLines(Object.fromEntries(restEntries), depth + 1, options2);
      return;
    }
  }
  const encodedKey = encodeKey(firstKey);
  if (isEncodablePrimitive(firstValue)) yield indentedListItem(depth, `${encodedKey}: ${encodePrimitive(firstValue, options2.delimiter)}`, options2.indentSize);
  else if (isJsonArray(firstValue)) {
    if (firstValue.length === 0) yield indentedListItem(depth, `${encodedKey}: []`, options2.indentSize);
    else if (isArrayOfPrimitives(firstValue)) yield indentedListItem(depth, `${encodedKey}${encodeInlineArrayLine(firstValue, options2.delimiter)}`, options2.indentSize);
    else {
      yield indentedListItem(depth, `${encodedKey}${formatHeader(firstValue.length, { delimiter: options2.delimiter })}`, options2.indentSize);
      for (const item of firstValue) yield* encodeListItemValueLines(item, depth + 2, options2);
    }
  } else if (isJsonObject(firstValue)) {
    yield indentedListItem(depth, `${encodedKey}:`, options2.indentSize);
    if (!isEmptyObject(firstValue)) yield* encodeObjectLines(firstValue, depth + 2, options2);
  }
  if (restEntries.length > 0) yield* encodeObjectLines(Object.fromEntries(restEntries), depth + 1, options2);
}
function* encodeListItemValueLines(value, depth, options2) {
  if (isEncodablePrimitive(value)) yield indentedListItem(depth, encodePrimitive(value, options2.delimiter), options2.indentSize);
  else if (isJsonArray(value)) {
    if (isArrayOfPrimitives(value)) yield indentedListItem(depth, encodeInlineArrayLine(value, options2.delimiter), options2.indentSize);
    else {
      yield indentedListItem(depth, formatHeader(value.length, { delimiter: options2.delimiter }), options2.indentSize);
      for (const item of value) yield* encodeListItemValueLines(item, depth + 1, options2);
    }
  } else if (isJsonObject(value)) yield* encodeObjectAsListItemLines(value, depth, options2);
}
function indentedLine(depth, content, indentSize) {
  return " ".repeat(indentSize * depth) + content;
}
function indentedListItem(depth, content, indentSize) {
  return indentedLine(depth, "- " + content, indentSize);
}
function applyReplacer(root, replacer) {
  const replacedRoot = replacer("", root, []);
  if (replacedRoot === void 0) return transformChildren(root, replacer, []);
  return transformReplaced(root, replacedRoot, replacer, []);
}
function transformReplaced(original, replaced, replacer, path) {
  if (isRawString(replaced) && !isEncodablePrimitive(original)) return transformChildren(original, replacer, path);
  return transformChildren(normalizeValue(replaced), replacer, path);
}
function transformChildren(value, replacer, path) {
  if (isJsonObject(value)) return transformObject(value, replacer, path);
  if (isJsonArray(value)) return transformArray(value, replacer, path);
  return value;
}
function transformObject(obj, replacer, path) {
  const result = {};
  for (const [key, value] of Object.entries(obj)) {
    const childPath = [...path, key];
    const replacedValue = replacer(key, value, childPath);
    if (replacedValue === void 0) continue;
    setOwnProperty(result, key, transformReplaced(value, replacedValue, replacer, childPath));
  }
  return result;
}
function transformArray(arr, replacer, path) {
  const result = [];
  for (let i = 0; i < arr.length; i++) {
    const value = arr[i];
    const childPath = [...path, i];
    const replacedValue = replacer(String(i), value, childPath);
    if (replacedValue === void 0) continue;
    result.push(transformReplaced(value, replacedValue, replacer, childPath));
  }
  return result;
}
function encode(input, options2) {
  return Array.from(encodeLines(input, options2)).join("\n");
}
function encodeLines(input, options2) {
  const normalizedValue = normalizeValue(input);
  const resolvedOptions = resolveOptions(options2);
  return encodeJsonValue(resolvedOptions.replacer ? applyReplacer(normalizedValue, resolvedOptions.replacer) : normalizedValue, resolvedOptions, 0);
}
function resolveOptions(options2) {
  const delimiter = options2?.delimiter ?? DEFAULT_DELIMITER;
  assertValidDelimiter(delimiter);
  return {
    indentSize: options2?.indentSize ?? options2?.indent ?? 2,
    delimiter,
    replacer: options2?.replacer
  };
}
var NULL_LITERAL, DELIMITERS, DEFAULT_DELIMITER, COMMENT_LINE_PATTERN, RawString, SURROGATE_PATTERN, NUMERIC_LIKE_PATTERN;
var init_dist2 = __esm({
  "node_modules/@toon-format/toon/dist/index.mjs"() {
    NULL_LITERAL = "null";
    DELIMITERS = {
      comma: ",",
      tab: "	",
      pipe: "|"
    };
    DEFAULT_DELIMITER = DELIMITERS.comma;
    COMMENT_LINE_PATTERN = new RegExp(`(?:^\uFEFF?|\\n) *#`);
    RawString = class {
      constructor(value) {
        if (COMMENT_LINE_PATTERN.test(value)) throw new TypeError(`Raw string must not contain a line starting with "#": ${JSON.stringify(value)}`);
        this.value = value;
      }
    };
    SURROGATE_PATTERN = /[\uD800-\uDFFF]/;
    NUMERIC_LIKE_PATTERN = /^[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;
  }
});

// src/lib/context/render.ts
function cleanText(text2, max) {
  let s = text2.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/<!--|-->/g, " ").replace(/<\/?\s*system-reminder\b[^>]*>/gi, " ").replace(/\s+/g, " ").trim();
  if (s.length > max) {
    const cut = s.slice(0, max - 1);
    const space = cut.lastIndexOf(" ");
    s = `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}\u2026`;
  }
  return s;
}
function dateOf(...values) {
  const t = timeOf(...values);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : "";
}
function toFactLine(fact) {
  return { fact: cleanText(fact.fact, MAX_FACT_CHARS), date: dateOf(fact.valid_at, fact.created_at) };
}
function toEntityLine(node) {
  return { name: cleanText(node.name, 120), summary: cleanText(node.summary ?? "", MAX_SUMMARY_CHARS) };
}
function contextHeader(projectName, groupIds) {
  const groups = groupIds.length === 1 ? `group ${groupIds[0]}` : `groups ${groupIds.join(", ")}`;
  return `${CONTEXT_HEADER_START}${cleanText(projectName, 120)} (from Graphiti, ${groups}):`;
}
function split(items) {
  const facts = [];
  const entities = [];
  for (const item of items) {
    if (item.kind === "fact") facts.push({ fact: item.fact, date: item.date });
    else entities.push({ name: item.name, summary: item.summary });
  }
  return { facts, entities };
}
function formatLines(header2, items) {
  if (items.length === 0) return "";
  const { facts, entities } = split(items);
  const lines = [header2];
  for (const f of facts) lines.push(f.date === "" ? `- ${f.fact}` : `- ${f.fact} (${f.date})`);
  if (entities.length > 0) {
    lines.push("Related entities:");
    for (const e of entities) lines.push(e.summary === "" ? `- ${e.name}` : `- ${e.name}: ${e.summary}`);
  }
  return lines.join("\n");
}
function formatToon(header2, items) {
  if (items.length === 0) return "";
  const { facts, entities } = split(items);
  const data = {};
  if (facts.length > 0) data.facts = facts.map((f) => ({ fact: f.fact, date: f.date }));
  if (entities.length > 0) data.entities = entities.map((e) => ({ name: e.name, summary: e.summary }));
  return `${header2}
${encode(data)}`;
}
function assertBudget(budget) {
  if (!Number.isInteger(budget) || budget < 0 || budget > MAX_CONTEXT_BUDGET) {
    throw new RangeError(`context budget ${budget} is not allowed: use a whole number from 0 to ${MAX_CONTEXT_BUDGET}`);
  }
}
function fitToBudget(items, render, budget) {
  assertBudget(budget);
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(items.slice(0, mid)).length <= budget) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return { text: "", count: 0 };
  const text2 = render(items.slice(0, lo));
  if (text2.length > budget) throw new Error(`internal: fitted context is ${text2.length} characters, over the budget of ${budget}`);
  return { text: text2, count: lo };
}
function renderContext(header2, items, format, budget) {
  assertBudget(budget);
  const measured = { lines: formatLines(header2, items).length, toon: formatToon(header2, items).length };
  const count = (n) => {
    const sub = items.slice(0, n);
    return { facts: sub.filter((i) => i.kind === "fact").length, nodes: sub.filter((i) => i.kind === "entity").length };
  };
  const lines = format === "toon" ? void 0 : fitToBudget(items, (s) => formatLines(header2, s), budget);
  const toon = format === "lines" ? void 0 : fitToBudget(items, (s) => formatToon(header2, s), budget);
  let chosen;
  if (lines !== void 0 && toon !== void 0) {
    const useToon = toon.count > lines.count || toon.count === lines.count && toon.text.length < lines.text.length;
    chosen = useToon ? { ...toon, format: "toon" } : { ...lines, format: "lines" };
  } else if (lines !== void 0) chosen = { ...lines, format: "lines" };
  else chosen = { ...toon, format: "toon" };
  if (chosen.text === "") return { text: "", format: "none", facts: 0, nodes: 0, measured };
  return { text: chosen.text, format: chosen.format, ...count(chosen.count), measured };
}
var MAX_FACT_CHARS, MAX_SUMMARY_CHARS;
var init_render = __esm({
  "src/lib/context/render.ts"() {
    "use strict";
    init_dist2();
    init_cache();
    init_rank();
    MAX_FACT_CHARS = 400;
    MAX_SUMMARY_CHARS = 240;
  }
});

// src/lib/context/context.ts
var context_exports = {};
__export(context_exports, {
  MAX_FACT_CHARS: () => MAX_FACT_CHARS,
  MAX_SUMMARY_CHARS: () => MAX_SUMMARY_CHARS,
  buildContext: () => buildContext,
  cleanText: () => cleanText,
  contextHeader: () => contextHeader,
  contextQueries: () => contextQueries,
  factTier: () => factTier,
  fitToBudget: () => fitToBudget,
  formatLines: () => formatLines,
  formatToon: () => formatToon,
  isExpired: () => isExpired,
  nodeTier: () => nodeTier,
  rankFacts: () => rankFacts,
  rankNodes: () => rankNodes,
  refreshProjectContext: () => refreshProjectContext,
  renderContext: () => renderContext,
  timeOf: () => timeOf,
  toCacheEntry: () => toCacheEntry,
  toEntityLine: () => toEntityLine,
  toFactLine: () => toFactLine
});
function clip(text2, max) {
  const s = text2.replace(/\s+/g, " ").trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return space > max / 2 ? cut.slice(0, space) : cut;
}
function contextQueries(project) {
  const name = project.name.replace(/[-_.]+/g, " ").trim() || project.name;
  const queries = [name, `${name} architecture decisions conventions`];
  const commits = project.isGit ? recentCommitSubjects(project.root, 5, project.gitDir) : [];
  if (commits.length > 0) queries.push(clip(commits.join("; "), 300));
  const titles = recentMemoryTitles(project.memoryDir, 5);
  if (titles.length > 0) queries.push(clip(titles.join("; "), 300));
  return [...new Set(queries.filter((q) => q !== ""))];
}
async function buildContext(input) {
  const { graphiti, config, project } = input;
  const now = input.now ?? /* @__PURE__ */ new Date();
  const logger = input.logger ?? nullLogger;
  if (config.contextBudget > MAX_CONTEXT_BUDGET) throw new RangeError(`contextBudget ${config.contextBudget} is over the hard cap of ${MAX_CONTEXT_BUDGET}`);
  const budget = Math.max(0, Math.min(config.contextBudget, MAX_CONTEXT_CHARS));
  const queries = contextQueries(project);
  const maxFacts = input.maxFacts ?? 20;
  const maxNodes = input.maxNodes ?? 8;
  const facts = [];
  const nodes = [];
  let failed = 0;
  let firstError;
  searches: for (const query of queries) {
    for (const kind of ["facts", "nodes"]) {
      if (input.signal?.aborted === true) throw input.signal.reason instanceof Error ? input.signal.reason : new Error("aborted");
      try {
        if (kind === "facts") facts.push(...await graphiti.searchFacts(query, project.groupIds, maxFacts, input.signal));
        else nodes.push(...await graphiti.searchNodes(query, project.groupIds, maxNodes, input.signal));
      } catch (error) {
        failed++;
        firstError ??= error;
        logger.warn("context search failed", { kind, query: query.slice(0, 80), error: error instanceof Error ? error.message : String(error) });
        if (error instanceof McpNetworkError || error instanceof McpTimeoutError) {
          failed = queries.length * 2;
          break searches;
        }
      }
    }
  }
  if (failed === queries.length * 2) throw firstError instanceof Error ? firstError : new Error(String(firstError));
  const rankedFacts = rankFacts(facts, now);
  const unique = /* @__PURE__ */ new Map();
  for (const f of facts) if (!unique.has(f.uuid)) unique.set(f.uuid, f);
  const expired = [...unique.values()].filter((f) => isExpired(f, now)).length;
  const rankedNodes = rankNodes(nodes);
  const items = [
    ...rankedFacts.map((f) => ({ kind: "fact", ...toFactLine(f) })),
    ...rankedNodes.map((n) => ({ kind: "entity", ...toEntityLine(n) }))
  ];
  const header2 = contextHeader(project.name, project.groupIds);
  const rendered = budget === 0 ? { text: "", format: "none", facts: 0, nodes: 0, measured: { lines: 0, toon: 0 } } : renderContext(header2, items, config.contextFormat, budget);
  if (rendered.text.length > budget) throw new Error(`internal: context of ${rendered.text.length} characters exceeds the budget of ${budget}`);
  return { ...rendered, queries, found: { facts: unique.size, nodes: rankedNodes.length, expired }, failedSearches: failed };
}
function toCacheEntry(project, built, now = /* @__PURE__ */ new Date()) {
  return {
    version: 1,
    builtAt: now.toISOString(),
    project: project.name,
    key: project.key,
    root: project.root,
    groupIds: project.groupIds,
    text: built.text,
    format: built.format,
    facts: built.facts,
    nodes: built.nodes,
    measured: built.measured
  };
}
async function refreshProjectContext(config, project, options2 = {}) {
  const logger = options2.logger ?? nullLogger;
  let graphiti = options2.graphiti;
  let close;
  if (graphiti === void 0) {
    const { GraphitiClient: GraphitiClient2 } = await Promise.resolve().then(() => (init_graphiti(), graphiti_exports));
    const client = new GraphitiClient2(config, { logger: logger.child({ component: "graphiti" }) });
    graphiti = client;
    close = () => client.close();
  }
  try {
    const now = options2.now ?? /* @__PURE__ */ new Date();
    const built = await buildContext({
      graphiti,
      config,
      project,
      now,
      logger,
      ...options2.signal === void 0 ? {} : { signal: options2.signal }
    });
    const entry = toCacheEntry(project, built, now);
    const path = await writeContextCache(config.stateDir, entry);
    logger.info("context cache written", { project: project.name, key: project.key, format: entry.format, chars: entry.text.length, facts: entry.facts, nodes: entry.nodes, measured: entry.measured, failedSearches: built.failedSearches });
    return { entry, path, built };
  } finally {
    await close?.().catch(() => void 0);
  }
}
var init_context = __esm({
  "src/lib/context/context.ts"() {
    "use strict";
    init_cache();
    init_log();
    init_errors2();
    init_project();
    init_rank();
    init_render();
    init_rank();
    init_render();
  }
});

// src/hooks/worker.ts
import { parseArgs } from "node:util";

// src/lib/config/config.ts
init_v3();
import { readFileSync as readFileSync4 } from "node:fs";
import { isAbsolute, join as join3, resolve as resolve2 } from "node:path";

// src/lib/config/env-file.ts
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

// src/lib/util/package-root.ts
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
function buildRootOf(hereUrl = import.meta.url) {
  let dir = dirname(fileURLToPath(hereUrl));
  while (basename(dir) !== "lib" && basename(dir) !== "hooks") {
    const up = dirname(dir);
    if (up === dir) throw new Error(`not inside a lib/ or hooks/ folder: ${hereUrl}`);
    dir = up;
  }
  return dirname(dir);
}
function packageRoot(hereUrl = import.meta.url) {
  return dirname(buildRootOf(hereUrl));
}

// src/lib/config/env-file.ts
var ConfigError = class extends Error {
  constructor(message, variable) {
    super(message);
    this.variable = variable;
    this.name = "ConfigError";
  }
  variable;
};
function home(env) {
  return env.HOME && env.HOME !== "" ? env.HOME : homedir();
}
function expandHome(p, env) {
  if (p === "~") return home(env);
  if (p.startsWith("~/")) return join(home(env), p.slice(2));
  return p;
}
function findEnvFile(env) {
  const explicit = env.MADEINOZ_KNOWLEDGE_ENV_FILE;
  if (explicit !== void 0 && explicit.trim() !== "") {
    const p = resolve(expandHome(explicit.trim(), env));
    if (!existsSync(p)) throw new ConfigError(`MADEINOZ_KNOWLEDGE_ENV_FILE="${explicit}" is not allowed: the file does not exist`, "MADEINOZ_KNOWLEDGE_ENV_FILE");
    return p;
  }
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : join(home(env), ".config");
  for (const candidate of [join(packageRoot(), "config", ".env"), join(xdg, "graphiti-memory-sync", ".env")]) {
    if (existsSync(candidate)) return candidate;
  }
  return void 0;
}
function findPaiEnvFile(env) {
  const candidates = [];
  const pai = env.PAI_DIR?.trim();
  if (pai !== void 0 && pai !== "") candidates.push(join(resolve(expandHome(pai, env)), ".env"));
  const claude = env.CLAUDE_CONFIG_DIR?.trim();
  candidates.push(join(claude !== void 0 && claude !== "" ? resolve(expandHome(claude, env)) : join(home(env), ".claude"), ".env"));
  return candidates.find((candidate) => existsSync(candidate));
}

// src/lib/config/server-runtime.ts
init_process_alive();
import { mkdirSync, readFileSync as readFileSync2, renameSync, writeFileSync } from "node:fs";
import { dirname as dirname2, join as join2 } from "node:path";
function serverStateDir(stateDir) {
  return join2(stateDir, "server");
}
function runtimePath(stateDir) {
  return join2(serverStateDir(stateDir), "runtime.json");
}
function readRuntime(stateDir) {
  try {
    return JSON.parse(readFileSync2(runtimePath(stateDir), "utf8"));
  } catch {
    return void 0;
  }
}
function processAlive(pid) {
  return pid !== void 0 && isProcessAlive(pid);
}
var COMMAND_MARKS = { supervisor: "server\0run", server: "main.py", db: "redis-server" };
function ourProcessAlive(pid, mark) {
  if (!processAlive(pid)) return false;
  try {
    return readFileSync2(`/proc/${pid}/cmdline`, "utf8").includes(mark);
  } catch {
    return true;
  }
}
function liveServerUrl(stateDir) {
  const runtime = readRuntime(stateDir);
  if (runtime?.state !== "ready" || runtime.url === void 0 || !ourProcessAlive(runtime.pid, COMMAND_MARKS.supervisor)) return void 0;
  return runtime.url;
}

// src/lib/config/config.ts
init_origin();
var SETTINGS = [
  { name: "MADEINOZ_KNOWLEDGE_MCP_URL", default: "http://localhost:8000/mcp", description: "Graphiti MCP endpoint (Streamable HTTP). Use /mcp, not /mcp/." },
  { name: "MADEINOZ_KNOWLEDGE_SSE_URL", default: "(derived: <origin>/sse)", description: "Legacy HTTP+SSE endpoint tried when Streamable HTTP is refused with 400/404/405." },
  { name: "MADEINOZ_KNOWLEDGE_TRANSPORT", default: "auto", description: "auto (Streamable HTTP, legacy SSE fallback), streamable-http, or sse." },
  { name: "MADEINOZ_KNOWLEDGE_DB", default: "neo4j", description: "Graph database behind Graphiti: neo4j or falkordb (legacy spelling falkorodb accepted). Chooses group-id and search escaping." },
  { name: "MADEINOZ_KNOWLEDGE_DATABASE_TYPE", default: "(none)", description: "The madeinoz Knowledge system's name for the database setting (neo4j or falkordb); used only when MADEINOZ_KNOWLEDGE_DB is unset." },
  { name: "MADEINOZ_KNOWLEDGE_GROUP_ID", default: "main", description: "Graphiti group that episodes go to and searches read." },
  { name: "MADEINOZ_KNOWLEDGE_SOURCE_GROUPS", default: "(none)", description: 'Per-source group overrides, e.g. "auto-memory={project},pai=learning". {project} = one group per project.' },
  { name: "MADEINOZ_KNOWLEDGE_TIMEOUT", default: "30000", description: "Deadline per MCP request in milliseconds, including reading the whole reply." },
  { name: "MADEINOZ_KNOWLEDGE_RETRIES", default: "3", description: "Retries after a transient failure (network, timeout, 408/425/429/5xx), with exponential backoff and jitter." },
  { name: "MADEINOZ_KNOWLEDGE_RETRY_DEADLINE", default: "60000", description: "Overall time budget in milliseconds for one call including all its retries." },
  { name: "MADEINOZ_KNOWLEDGE_AUTH_TOKEN", default: "(none)", description: "Bearer token sent as Authorization for servers behind auth. Never logged." },
  { name: "MADEINOZ_KNOWLEDGE_HEADERS", default: "(none)", description: 'Extra HTTP headers as a JSON object, e.g. {"X-Api-Key":"..."}. Values are never logged.' },
  { name: "MADEINOZ_KNOWLEDGE_STATE_DIR", default: "$XDG_STATE_HOME/graphiti-memory-sync (~/.local/state/graphiti-memory-sync)", description: "Where the state file, lock, logs and context cache live. Outside any plugin folder on purpose." },
  { name: "MADEINOZ_KNOWLEDGE_ENV_FILE", default: "(see docs/configuration.md)", description: "Explicit .env file to read settings from (environment variables still win)." },
  { name: "PAI_DIR", default: "~/.claude", description: "PAI root; its MEMORY folder (LEARNING/..., RESEARCH/...) is a source." },
  { name: "CLAUDE_CONFIG_DIR", default: "~/.claude", description: "Claude Code config root; projects/*/memory/*.md (auto memory) is a source." },
  { name: "MADEINOZ_KNOWLEDGE_SYNC_PAI", default: "true", description: "Sync the PAI memory folder." },
  { name: "MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY", default: "true", description: "Sync Claude Code's auto memory topic files." },
  { name: "MADEINOZ_KNOWLEDGE_ORIGIN", default: "(this machine)", description: "Who this machine's episodes are from, named in their markers: a sync never deletes, replaces or adopts an episode of another origin. Default: derived from the machine id and user name (stable across reinstalls and a lost state folder). Lower-case letters, digits and hyphens." },
  { name: "MADEINOZ_KNOWLEDGE_SHARED_SOURCES", default: "(none)", description: 'Sources shared by several people or machines, as comma-separated source=origin pairs (e.g. "team=team-notes"): everyone who declares the same origin for the same folder acts as one owner, so each file has one episode, and an edit by any of them replaces it.' },
  { name: "MADEINOZ_KNOWLEDGE_SYNC_PATHS", default: "(none)", description: 'Extra folders to sync, separated by ":" (";" on Windows); "name=path" names a source.' },
  { name: "MADEINOZ_KNOWLEDGE_EXCLUDE", default: "(none)", description: 'Comma-separated globs (relative to each source root) of files never synced, e.g. "**/drafts/**,*.tmp.md".' },
  { name: "MADEINOZ_KNOWLEDGE_DELETE_REMOVED", default: "true", description: "Delete the episode of a memory file that was deleted from disk." },
  { name: "MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES", default: "1048576", description: 'Files larger than this are skipped with the reason "too-large" (never truncated).' },
  { name: "MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS", default: "8000", description: "Bodies longer than this are split at headings/paragraphs into numbered parts." },
  { name: "MADEINOZ_KNOWLEDGE_CONCURRENCY", default: "4", description: "How many episodes are sent at once." },
  { name: "MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE", default: "1800000", description: "The longest a queued episode is waited for while its group shows no movement (no episode of anyone started, none of ours appeared) before it is re-sent: Graphiti drops failures silently. Once a group has been seen moving, the wait is several times its observed pace (at least 10 s), never more than this." },
  { name: "MADEINOZ_KNOWLEDGE_MAX_RESENDS", default: "3", description: "How often a silently dropped episode is re-sent before the file is marked failed." },
  { name: "MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET", default: "8000", description: "Maximum characters of knowledge injected at session start (hard cap 10000)." },
  { name: "MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME", default: "false", description: "Inject context again on a resumed session (the transcript already has it)." },
  { name: "MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT", default: "auto", description: "Context block format: lines, toon, or auto (whichever is shorter for the same facts)." },
  { name: "MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE", default: "500", description: "Watch mode: milliseconds of quiet before a burst of changes becomes one sync pass." },
  { name: "MADEINOZ_KNOWLEDGE_LOG_LEVEL", default: "info", description: "Log file verbosity: debug, info, warn, error or silent." }
];
var KNOWN = new Set(SETTINGS.map((s) => s.name));
var bool = (name) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  const s = v.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(s)) return true;
  if (["0", "false", "no", "off"].includes(s)) return false;
  ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use true or false` });
  return external_exports.NEVER;
});
var int = (name, min, max) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  const n = Number(v.trim());
  if (!Number.isInteger(n) || n < min || n > max) {
    ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use a whole number from ${min} to ${max}` });
    return external_exports.NEVER;
  }
  return n;
});
var oneOf = (name, values, aliases = {}) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  const s = v.trim().toLowerCase();
  if (values.includes(s)) return { value: s, alias: false };
  const aliased = aliases[s];
  if (aliased !== void 0) return { value: aliased, alias: true };
  ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use one of ${values.join(", ")}` });
  return external_exports.NEVER;
});
var httpUrl = (name) => external_exports.string().optional().transform((v, ctx) => {
  if (v === void 0 || v.trim() === "") return void 0;
  try {
    const u = new URL(v.trim());
    if (u.protocol === "http:" || u.protocol === "https:") return u.toString();
  } catch {
  }
  ctx.addIssue({ code: external_exports.ZodIssueCode.custom, message: `${name}="${v}" is not allowed: use an http:// or https:// URL` });
  return external_exports.NEVER;
});
var rawSchema = external_exports.object({
  MADEINOZ_KNOWLEDGE_MCP_URL: httpUrl("MADEINOZ_KNOWLEDGE_MCP_URL"),
  MADEINOZ_KNOWLEDGE_SSE_URL: httpUrl("MADEINOZ_KNOWLEDGE_SSE_URL"),
  MADEINOZ_KNOWLEDGE_TRANSPORT: oneOf("MADEINOZ_KNOWLEDGE_TRANSPORT", ["auto", "streamable-http", "sse"], { http: "streamable-http" }),
  MADEINOZ_KNOWLEDGE_DB: oneOf("MADEINOZ_KNOWLEDGE_DB", ["neo4j", "falkordb"], { falkorodb: "falkordb" }),
  MADEINOZ_KNOWLEDGE_DATABASE_TYPE: oneOf("MADEINOZ_KNOWLEDGE_DATABASE_TYPE", ["neo4j", "falkordb"], { falkorodb: "falkordb" }),
  MADEINOZ_KNOWLEDGE_GROUP_ID: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_SOURCE_GROUPS: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_TIMEOUT: int("MADEINOZ_KNOWLEDGE_TIMEOUT", 100, 36e5),
  MADEINOZ_KNOWLEDGE_RETRIES: int("MADEINOZ_KNOWLEDGE_RETRIES", 0, 20),
  MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: int("MADEINOZ_KNOWLEDGE_RETRY_DEADLINE", 100, 864e5),
  MADEINOZ_KNOWLEDGE_AUTH_TOKEN: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_HEADERS: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_STATE_DIR: external_exports.string().optional(),
  PAI_DIR: external_exports.string().optional(),
  CLAUDE_CONFIG_DIR: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_SYNC_PAI: bool("MADEINOZ_KNOWLEDGE_SYNC_PAI"),
  MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY: bool("MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY"),
  MADEINOZ_KNOWLEDGE_SYNC_PATHS: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_ORIGIN: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_SHARED_SOURCES: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_EXCLUDE: external_exports.string().optional(),
  MADEINOZ_KNOWLEDGE_DELETE_REMOVED: bool("MADEINOZ_KNOWLEDGE_DELETE_REMOVED"),
  MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES: int("MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES", 1, 1024 * 1024 * 1024),
  MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS: int("MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS", 500, 1e6),
  MADEINOZ_KNOWLEDGE_CONCURRENCY: int("MADEINOZ_KNOWLEDGE_CONCURRENCY", 1, 64),
  MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: int("MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE", 0, 30 * 864e5),
  MADEINOZ_KNOWLEDGE_MAX_RESENDS: int("MADEINOZ_KNOWLEDGE_MAX_RESENDS", 0, 100),
  MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET: int("MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET", 0, 1e4),
  MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME: bool("MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME"),
  MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT: oneOf("MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT", ["auto", "lines", "toon"]),
  MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE: int("MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE", 0, 6e5),
  MADEINOZ_KNOWLEDGE_LOG_LEVEL: oneOf("MADEINOZ_KNOWLEDGE_LOG_LEVEL", ["debug", "info", "warn", "error", "silent"])
});
async function readEnvFile(file) {
  const { parse: parse2 } = await Promise.resolve().then(() => __toESM(require_main(), 1));
  let text2;
  try {
    text2 = readFileSync4(file, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read settings file ${file}: ${error.message}`);
  }
  const parsed = parse2(text2);
  const out = {};
  for (const [key, value] of Object.entries(parsed)) if (KNOWN.has(key)) out[key] = value;
  return out;
}
function parseHeaders(raw) {
  if (raw === void 0 || raw.trim() === "") return {};
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError('MADEINOZ_KNOWLEDGE_HEADERS is not allowed: use a JSON object of header names to string values, e.g. {"X-Api-Key":"..."} (value not shown: it may hold a secret)', "MADEINOZ_KNOWLEDGE_HEADERS");
  }
  const result = external_exports.record(external_exports.string()).safeParse(value);
  if (!result.success || Array.isArray(value)) {
    throw new ConfigError("MADEINOZ_KNOWLEDGE_HEADERS is not allowed: use a JSON object whose values are strings (value not shown: it may hold a secret)", "MADEINOZ_KNOWLEDGE_HEADERS");
  }
  for (const name of Object.keys(result.data)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_HEADERS is not allowed: "${name}" is not a valid HTTP header name`, "MADEINOZ_KNOWLEDGE_HEADERS");
    }
  }
  return result.data;
}
function parseList(raw, sep) {
  if (raw === void 0) return [];
  return raw.split(sep).map((s) => s.trim()).filter((s) => s !== "");
}
function parseExtraSources(raw, env) {
  const sep = process.platform === "win32" ? /;/ : /:/;
  const used = /* @__PURE__ */ new Set();
  return parseList(raw, sep).map((entry, index) => {
    const eq = entry.indexOf("=");
    let name = eq > 0 ? entry.slice(0, eq).trim() : `extra${index + 1}`;
    const path = resolve2(expandHome(eq > 0 ? entry.slice(eq + 1).trim() : entry, env));
    if (!/^[A-Za-z0-9_-]+$/.test(name) || name === "pai" || name === "auto-memory") {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SYNC_PATHS="${raw}" is not allowed: source name "${name}" must match [A-Za-z0-9_-]+ and not be "pai" or "auto-memory"`, "MADEINOZ_KNOWLEDGE_SYNC_PATHS");
    }
    if (used.has(name)) name = `${name}${index + 1}`;
    used.add(name);
    return { name, path };
  });
}
function parseOrigin(raw, variable) {
  if (raw === void 0) return void 0;
  const origin = raw.trim();
  if (!ORIGIN_NAME.test(origin)) throw new ConfigError(`${variable}="${raw}" is not allowed: an origin is 1-40 lower-case letters, digits and hyphens, starting with a letter or digit`, variable);
  return origin;
}
function parseSharedSources(raw) {
  const out = /* @__PURE__ */ Object.create(null);
  for (const pair of parseList(raw, /,/)) {
    const eq = pair.indexOf("=");
    if (eq <= 0 || eq === pair.length - 1) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SHARED_SOURCES="${raw}" is not allowed: use comma-separated source=origin pairs, e.g. "team=team-notes"`, "MADEINOZ_KNOWLEDGE_SHARED_SOURCES");
    }
    out[pair.slice(0, eq).trim()] = parseOrigin(pair.slice(eq + 1), "MADEINOZ_KNOWLEDGE_SHARED_SOURCES");
  }
  return out;
}
function parseSourceGroups(raw) {
  const out = {};
  for (const pair of parseList(raw, /,/)) {
    const eq = pair.indexOf("=");
    if (eq <= 0 || eq === pair.length - 1) {
      throw new ConfigError(`MADEINOZ_KNOWLEDGE_SOURCE_GROUPS="${raw}" is not allowed: use comma-separated source=group pairs, e.g. "auto-memory={project}"`, "MADEINOZ_KNOWLEDGE_SOURCE_GROUPS");
    }
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}
async function loadConfig(options2 = {}) {
  const processEnv = options2.env ?? process.env;
  let envFile;
  let paiEnvFile;
  const env = {};
  const layer = (values) => {
    for (const [k, v] of Object.entries(values)) if (v !== void 0 && v !== "") env[k] = v;
  };
  if (options2.readEnvFile !== false) {
    envFile = findEnvFile(processEnv);
    const ours = envFile === void 0 ? {} : await readEnvFile(envFile);
    paiEnvFile = findPaiEnvFile({ ...ours, ...definedOnly(processEnv) });
    if (paiEnvFile !== void 0 && paiEnvFile !== envFile) layer(await readEnvFile(paiEnvFile));
    else paiEnvFile = void 0;
    layer(ours);
  }
  layer(processEnv);
  return { ...buildConfig(env, envFile), paiEnvFile };
}
function definedOnly(env) {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== void 0 && v !== ""));
}
function buildConfig(env, envFile) {
  const parsed = rawSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path[0] === void 0 ? void 0 : String(issue.path[0]);
    throw new ConfigError(issue?.message ?? "Invalid configuration", variable);
  }
  const raw = parsed.data;
  const warnings = [];
  if (raw.MADEINOZ_KNOWLEDGE_DB?.alias) {
    warnings.push(`MADEINOZ_KNOWLEDGE_DB="${env.MADEINOZ_KNOWLEDGE_DB}" is a legacy misspelling; use "falkordb".`);
  }
  const dbSetting = raw.MADEINOZ_KNOWLEDGE_DB?.value ?? raw.MADEINOZ_KNOWLEDGE_DATABASE_TYPE?.value;
  const groupId = (raw.MADEINOZ_KNOWLEDGE_GROUP_ID ?? "").trim() || "main";
  if (groupId.length > 128) {
    throw new ConfigError(`MADEINOZ_KNOWLEDGE_GROUP_ID="${groupId.slice(0, 40)}\u2026" is not allowed: at most 128 characters`, "MADEINOZ_KNOWLEDGE_GROUP_ID");
  }
  const stateHome = env.XDG_STATE_HOME && env.XDG_STATE_HOME !== "" ? env.XDG_STATE_HOME : join3(home(env), ".local", "state");
  const dirSetting = (value, fallback, name) => {
    const p = value === void 0 || value.trim() === "" ? fallback : expandHome(value.trim(), env);
    if (!isAbsolute(p)) throw new ConfigError(`${name}="${value}" is not allowed: use an absolute path (or one starting with ~/)`, name);
    return p;
  };
  const contextBudget = raw.MADEINOZ_KNOWLEDGE_CONTEXT_BUDGET ?? 8e3;
  const stateDir = dirSetting(raw.MADEINOZ_KNOWLEDGE_STATE_DIR, join3(stateHome, "graphiti-memory-sync"), "MADEINOZ_KNOWLEDGE_STATE_DIR");
  const localUrl = raw.MADEINOZ_KNOWLEDGE_MCP_URL === void 0 ? liveServerUrl(stateDir) : void 0;
  const db = dbSetting ?? (localUrl !== void 0 ? "falkordb" : "neo4j");
  return {
    mcpUrl: raw.MADEINOZ_KNOWLEDGE_MCP_URL ?? localUrl ?? "http://localhost:8000/mcp",
    mcpUrlSource: raw.MADEINOZ_KNOWLEDGE_MCP_URL !== void 0 ? "setting" : localUrl !== void 0 ? "local-server" : "default",
    sseUrl: raw.MADEINOZ_KNOWLEDGE_SSE_URL,
    transport: raw.MADEINOZ_KNOWLEDGE_TRANSPORT?.value ?? "auto",
    db,
    groupId,
    sourceGroups: parseSourceGroups(raw.MADEINOZ_KNOWLEDGE_SOURCE_GROUPS),
    timeoutMs: raw.MADEINOZ_KNOWLEDGE_TIMEOUT ?? 3e4,
    retries: raw.MADEINOZ_KNOWLEDGE_RETRIES ?? 3,
    retryDeadlineMs: raw.MADEINOZ_KNOWLEDGE_RETRY_DEADLINE ?? 6e4,
    authToken: raw.MADEINOZ_KNOWLEDGE_AUTH_TOKEN?.trim() || void 0,
    headers: parseHeaders(raw.MADEINOZ_KNOWLEDGE_HEADERS),
    stateDir,
    paiDir: dirSetting(raw.PAI_DIR, join3(home(env), ".claude"), "PAI_DIR"),
    claudeConfigDir: dirSetting(raw.CLAUDE_CONFIG_DIR, join3(home(env), ".claude"), "CLAUDE_CONFIG_DIR"),
    syncPai: raw.MADEINOZ_KNOWLEDGE_SYNC_PAI ?? true,
    syncAutoMemory: raw.MADEINOZ_KNOWLEDGE_SYNC_AUTO_MEMORY ?? true,
    extraSources: parseExtraSources(raw.MADEINOZ_KNOWLEDGE_SYNC_PATHS, env),
    origin: parseOrigin(raw.MADEINOZ_KNOWLEDGE_ORIGIN, "MADEINOZ_KNOWLEDGE_ORIGIN") ?? machineOrigin(),
    sharedSources: parseSharedSources(raw.MADEINOZ_KNOWLEDGE_SHARED_SOURCES),
    exclude: parseList(raw.MADEINOZ_KNOWLEDGE_EXCLUDE, /,/),
    deleteRemoved: raw.MADEINOZ_KNOWLEDGE_DELETE_REMOVED ?? true,
    maxFileBytes: raw.MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES ?? 1024 * 1024,
    maxEpisodeChars: raw.MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS ?? 8e3,
    concurrency: raw.MADEINOZ_KNOWLEDGE_CONCURRENCY ?? 4,
    confirmMaxAgeMs: raw.MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE ?? 30 * 6e4,
    maxResends: raw.MADEINOZ_KNOWLEDGE_MAX_RESENDS ?? 3,
    contextBudget: Math.min(contextBudget, 1e4),
    contextOnResume: raw.MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME ?? false,
    contextFormat: raw.MADEINOZ_KNOWLEDGE_CONTEXT_FORMAT?.value ?? "auto",
    watchDebounceMs: raw.MADEINOZ_KNOWLEDGE_WATCH_DEBOUNCE ?? 500,
    logLevel: raw.MADEINOZ_KNOWLEDGE_LOG_LEVEL?.value ?? "info",
    warnings,
    envFile,
    paiEnvFile: void 0
  };
}

// src/hooks/worker.ts
init_cache();
init_log();
init_project();

// src/lib/worker/spawn.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import { appendFileSync as appendFileSync2, mkdirSync as mkdirSync3, readFileSync as readFileSync8, renameSync as renameSync3, statSync as statSync4, unlinkSync as unlinkSync2, writeFileSync as writeFileSync3 } from "node:fs";
import { dirname as dirname6, extname, join as join8, resolve as resolve4 } from "node:path";
init_lock_file();
init_process_alive();
init_process_alive();
var WORKER_TIMEOUT_MS = 5 * 6e4;
var LOCK_STALE_MS = WORKER_TIMEOUT_MS + 6e4;
function workerFiles(stateDir) {
  const dir = join8(stateDir, "worker");
  return { dir, pidFile: join8(dir, "worker.pid"), dirtyFile: join8(dir, "worker.dirty") };
}
function readLock(pidFile) {
  try {
    return parseLockInfo(readFileSync8(pidFile, "utf8"));
  } catch {
    return void 0;
  }
}
function parseLockInfo(text2) {
  try {
    const value = JSON.parse(text2);
    if (typeof value.pid === "number" && typeof value.token === "string" && typeof value.startedAt === "string") {
      return { pid: value.pid, token: value.token, startedAt: value.startedAt };
    }
  } catch {
  }
  return void 0;
}
function lockIsStale(pidFile, info, now) {
  if (info === void 0) {
    try {
      return now - statSync4(pidFile).mtimeMs > 1e4;
    } catch {
      return true;
    }
  }
  const started = Date.parse(info.startedAt);
  if (Number.isFinite(started) && now - started > LOCK_STALE_MS) return true;
  return !isProcessAlive(info.pid);
}
function writeTemp(target, content) {
  const tmp = join8(dirname6(target), `.${randomBytes2(6).toString("hex")}.${process.pid}.tmp`);
  writeFileSync3(tmp, content, { mode: 384, flag: "wx" });
  return tmp;
}
function takeLock(stateDir, options2 = {}) {
  const files = workerFiles(stateDir);
  mkdirSync3(files.dir, { recursive: true, mode: 448 });
  const lock = {
    pid: options2.pid ?? process.pid,
    token: options2.token ?? randomBytes2(8).toString("hex"),
    startedAt: new Date(options2.now ?? Date.now()).toISOString()
  };
  const tag2 = `${process.pid}.${randomBytes2(6).toString("hex")}`;
  for (let attempt2 = 0; attempt2 < 3; attempt2++) {
    if (createLockFile(files.pidFile, `${JSON.stringify(lock)}
`, tag2)) return { acquired: true, lock };
    const seen = readLockFile(files.pidFile);
    if (seen === void 0) continue;
    const holder = parseLockInfo(seen.text);
    if (!lockIsStale(files.pidFile, holder, options2.now ?? Date.now())) return { acquired: false, holder };
    removeStaleLock(files.pidFile, seen, (a, b) => sameLockFile(a, b, (text2) => parseLockInfo(text2)?.token), tag2);
  }
  return { acquired: false, holder: readLock(files.pidFile) };
}
function transferLock(stateDir, lock, pid) {
  const files = workerFiles(stateDir);
  const current = readLock(files.pidFile);
  if (current === void 0 || current.token !== lock.token) throw new Error("worker lock is not ours any more");
  const next = { ...lock, pid };
  const tmp = writeTemp(files.pidFile, `${JSON.stringify(next)}
`);
  try {
    renameSync3(tmp, files.pidFile);
  } catch (error) {
    try {
      unlinkSync2(tmp);
    } catch {
    }
    throw error;
  }
  return next;
}
function releaseLock(stateDir, token) {
  const files = workerFiles(stateDir);
  try {
    const current = readLock(files.pidFile);
    if (current?.token !== token) return false;
    unlinkSync2(files.pidFile);
    return true;
  } catch {
    return false;
  }
}
function markDirty(stateDir, request) {
  const files = workerFiles(stateDir);
  mkdirSync3(files.dir, { recursive: true, mode: 448 });
  appendFileSync2(files.dirtyFile, `${JSON.stringify({ cwd: request.cwd, reason: request.reason, at: (/* @__PURE__ */ new Date()).toISOString() })}
`, { mode: 384 });
}
function isDirty2(stateDir) {
  try {
    statSync4(workerFiles(stateDir).dirtyFile);
    return true;
  } catch {
    return false;
  }
}
function consumeDirty(stateDir) {
  const files = workerFiles(stateDir);
  const taken = `${files.dirtyFile}.${process.pid}.${randomBytes2(4).toString("hex")}`;
  try {
    renameSync3(files.dirtyFile, taken);
  } catch {
    return void 0;
  }
  const requests = [];
  try {
    for (const line of readFileSync8(taken, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        const v = JSON.parse(line);
        if (typeof v.cwd !== "string" || v.cwd === "") continue;
        const reason = typeof v.reason === "string" ? v.reason : "unknown";
        if (!requests.some((r) => r.cwd === v.cwd && r.reason === reason)) requests.push({ cwd: v.cwd, reason });
      } catch {
      }
    }
  } catch {
  } finally {
    try {
      unlinkSync2(taken);
    } catch {
    }
  }
  return requests;
}

// src/lib/worker/loop.ts
async function runWorker(options2) {
  const { config, logger, steps } = options2;
  const stateDir = config.stateDir;
  const maxPasses = options2.maxPasses ?? 3;
  const refreshAfterMs = options2.refreshAfterMs ?? 30 * 6e4;
  const result = { outcome: "done", passes: 0, syncs: 0, refreshed: [], errors: 0 };
  let token;
  const current = readLock(workerFiles(stateDir).pidFile);
  if (options2.lockToken !== void 0 && current?.token === options2.lockToken) {
    token = current.token;
    if (current.pid !== process.pid) {
      try {
        transferLock(stateDir, current, process.pid);
      } catch (error) {
        logger.warn("could not write our pid into the worker lock", { error });
      }
    }
  } else {
    const taken = takeLock(stateDir);
    if (!taken.acquired) {
      for (const r of options2.initial ?? []) markDirty(stateDir, r);
      logger.info("another worker holds the lock; request left for it", { holderPid: taken.holder?.pid });
      result.outcome = options2.lockToken === void 0 ? "busy" : "lock-lost";
      return result;
    }
    token = taken.lock.token;
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`worker time limit of ${options2.timeoutMs ?? WORKER_TIMEOUT_MS} ms reached`)), options2.timeoutMs ?? WORKER_TIMEOUT_MS);
  timer.unref();
  const ctx = { logger, signal: controller.signal };
  let pending = [...options2.initial ?? []];
  try {
    for (; ; ) {
      while (result.passes < maxPasses && !controller.signal.aborted) {
        const requests = consumeDirty(stateDir);
        if (requests === void 0 && result.passes > 0 && pending.length === 0) break;
        for (const r of requests ?? []) if (!pending.some((p) => p.cwd === r.cwd && p.reason === r.reason)) pending.push(r);
        const batch = pending;
        pending = [];
        result.passes++;
        logger.info("worker pass", { pass: result.passes, requests: batch.length });
        let changed = 0;
        let unreachable = false;
        try {
          const summary = await steps.sync(config, ctx);
          result.syncs++;
          changed = summary?.changed ?? 0;
          unreachable = summary?.serverReachable === false;
        } catch (error) {
          result.errors++;
          logger.error("sync failed", { error: errorFields(error) });
        }
        const cwds = [...new Set(batch.map((r) => r.cwd))];
        if (unreachable) {
          logger.info("Graphiti unreachable; context refresh skipped, previous cache kept", { projects: cwds.length });
          cwds.length = 0;
        }
        for (const cwd of cwds) {
          if (controller.signal.aborted) break;
          const fromSessionStart = batch.some((r) => r.cwd === cwd && r.reason.startsWith("session-start"));
          const age = steps.contextAgeMs(config, cwd);
          if (!fromSessionStart && changed === 0 && age !== void 0 && age < refreshAfterMs) {
            logger.debug("context fresh enough", { cwd, ageMs: age });
            continue;
          }
          try {
            await steps.refreshContext(config, cwd, ctx);
            result.refreshed.push(cwd);
          } catch (error) {
            result.errors++;
            logger.warn("context refresh failed; keeping the previous cache", { cwd, error: errorFields(error) });
          }
        }
      }
      releaseLock(stateDir, token);
      if (controller.signal.aborted || result.passes >= maxPasses || !isDirty2(stateDir)) break;
      const again = takeLock(stateDir);
      if (!again.acquired) break;
      token = again.lock.token;
    }
  } finally {
    clearTimeout(timer);
    releaseLock(stateDir, token);
  }
  if (controller.signal.aborted) result.outcome = "timeout";
  logger.info("worker finished", { ...result });
  return result;
}
function errorFields(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return String(error);
}

// src/hooks/hook-io.ts
import { mkdirSync as mkdirSync4, readFileSync as readFileSync9, unlinkSync as unlinkSync3, writeFileSync as writeFileSync4 } from "node:fs";
import { homedir as homedir2, tmpdir } from "node:os";
import { isAbsolute as isAbsolute3, join as join9 } from "node:path";
init_cache();
var MAX_STDIN_BYTES = 1024 * 1024;
function usableDir(dir) {
  try {
    mkdirSync4(dir, { recursive: true, mode: 448 });
    return true;
  } catch {
    return false;
  }
}
function fallbackStateDir(env = process.env) {
  const candidates = [];
  let home2 = env.HOME && env.HOME !== "" ? env.HOME : void 0;
  if (home2 === void 0) {
    try {
      home2 = homedir2();
    } catch {
      home2 = void 0;
    }
  }
  const explicit = env.MADEINOZ_KNOWLEDGE_STATE_DIR?.trim();
  if (explicit !== void 0 && explicit !== "") {
    const p = explicit.startsWith("~/") && home2 !== void 0 ? join9(home2, explicit.slice(2)) : explicit;
    if (isAbsolute3(p)) candidates.push(p);
  }
  {
    const xdg = env.XDG_STATE_HOME && isAbsolute3(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : home2 === void 0 ? void 0 : join9(home2, ".local", "state");
    if (xdg !== void 0) candidates.push(join9(xdg, "graphiti-memory-sync"));
  }
  let user = "user";
  try {
    user = String(process.getuid?.() ?? env.USERNAME ?? "user");
  } catch {
  }
  candidates.push(join9(tmpdir(), `graphiti-memory-sync-${user}`));
  for (const dir of candidates) if (usableDir(dir)) return dir;
  return candidates[candidates.length - 1];
}

// src/hooks/worker.ts
var SYNC_LOCK_TIMEOUT_MS = 3e4;
function realSteps(config, logger) {
  let client;
  const graphiti = async () => {
    if (client === void 0) {
      const { GraphitiClient: GraphitiClient2 } = await Promise.resolve().then(() => (init_graphiti(), graphiti_exports));
      client = new GraphitiClient2(config, { logger: logger.child({ component: "graphiti" }) });
    }
    return client;
  };
  return {
    async sync(cfg, ctx) {
      const { runSync: runSync2 } = await Promise.resolve().then(() => (init_sync(), sync_exports));
      const summary = await runSync2(cfg, { logger: ctx.logger.child({ component: "sync" }), signal: ctx.signal, lockTimeoutMs: SYNC_LOCK_TIMEOUT_MS, lockLabel: "hook worker", graphiti: await graphiti() });
      ctx.logger.info("sync done", {
        added: summary.added,
        updated: summary.updated,
        deleted: summary.deleted,
        failed: summary.failed,
        pending: summary.pending,
        serverReachable: summary.serverReachable
      });
      return { changed: summary.added + summary.updated + summary.deleted + (summary.renamed ?? 0), serverReachable: summary.serverReachable };
    },
    async refreshContext(cfg, cwd, ctx) {
      const { refreshProjectContext: refreshProjectContext2 } = await Promise.resolve().then(() => (init_context(), context_exports));
      await refreshProjectContext2(cfg, detectProject(cwd, cfg), { graphiti: await graphiti(), logger: ctx.logger.child({ component: "context" }), signal: ctx.signal });
    },
    contextAgeMs(cfg, cwd) {
      const entry = readContextCache(cfg.stateDir, detectProject(cwd, cfg).key);
      if (entry === void 0) return void 0;
      const t = Date.parse(entry.builtAt);
      return Number.isFinite(t) ? Date.now() - t : void 0;
    },
    async close() {
      await client?.close().catch(() => void 0);
    }
  };
}
async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { cwd: { type: "string" }, "lock-token": { type: "string" }, reason: { type: "string" } },
    strict: false
  });
  const cwd = typeof values.cwd === "string" && values.cwd !== "" ? values.cwd : process.cwd();
  const token = typeof values["lock-token"] === "string" ? values["lock-token"] : void 0;
  const reason = typeof values.reason === "string" ? values.reason : "manual";
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    const stateDir = fallbackStateDir();
    createLogger({ file: logFilePath(stateDir) }).child({ component: "worker" }).error("configuration error; worker not started", { error: error instanceof Error ? error.message : String(error) });
    return;
  }
  const logger = createLogger({ file: logFilePath(config.stateDir), level: config.logLevel }).child({ component: "worker" });
  const override = Number(process.env.GMS_WORKER_TIMEOUT_MS);
  const timeoutMs = Number.isInteger(override) && override > 0 ? Math.min(override, WORKER_TIMEOUT_MS) : WORKER_TIMEOUT_MS;
  const hard = setTimeout(() => {
    logger.error("worker hard time limit reached; exiting");
    if (token !== void 0) releaseLock(config.stateDir, token);
    process.exit(0);
  }, timeoutMs + Math.min(15e3, timeoutMs));
  hard.unref();
  const guard = (error) => {
    logger.error("worker crashed", { error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
    if (token !== void 0) releaseLock(config.stateDir, token);
    process.exit(0);
  };
  process.on("uncaughtException", guard);
  process.on("unhandledRejection", guard);
  const steps = realSteps(config, logger);
  const initial = [{ cwd, reason }];
  try {
    await runWorker({ config, logger, steps, initial, lockToken: token, timeoutMs });
  } finally {
    await steps.close();
  }
}
try {
  await main();
} catch {
}
process.exitCode = 0;
export {
  realSteps
};
