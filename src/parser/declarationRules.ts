/**
 * The rules of gk's grammar for module items (kernels, functions, constants, structs,
 * imports, launches, annotations) and for types: the first layer of the parser
 * (`grammar.ts`), so chevrotain records them first. Rules of later layers that these refer
 * to are declared abstract here.
 */
import { tokenMatcher, type CstNode, type ParserMethod } from "chevrotain";
import { GrammarBase } from "./grammarBase.js";
import {
  AnyName, At, Colon, Comma, Const, CtxBlock, CtxConstant, CtxFrom, CtxGlobal, CtxGrid, CtxInout, CtxOut, CtxReadonly, CtxStruct, CtxView,
  DeviceFn, DeviceKernel, Eq, Export, Greater, Identifier, Import, LBracket, LCurly, Less, Launch, LParen, Pipe, RBracket, RCurly, RParen, Semi,
  Shared, StringLit,
} from "./tokens.js";

/** A rule of the grammar, as chevrotain's RULE returns it. */
type Rule = ParserMethod<[], CstNode>;

export abstract class DeclarationRules extends GrammarBase {
  // Defined by StatementRules and ExpressionRules.
  abstract readonly block: Rule;
  abstract readonly expression: Rule;
  abstract readonly unary: Rule;
  abstract readonly argList: Rule;

  // ------------------------------------------------------------------ module items

  readonly module = this.RULE("module", () => {
    this.MANY(() => this.SUBRULE(this.item));
  });

  readonly item = this.RULE("item", () => {
    this.OPTION(() => this.CONSUME(Export));
    this.OR([
      { ALT: () => this.SUBRULE(this.kernelDecl) },
      { ALT: () => this.SUBRULE(this.functionDecl) },
      { ALT: () => this.SUBRULE(this.constDecl) },
      { ALT: () => this.SUBRULE(this.structDecl) },
      { ALT: () => this.SUBRULE(this.importDecl) },
      { ALT: () => this.SUBRULE(this.launchDecl) },
      { ALT: () => this.SUBRULE(this.constantDecl) },
      { ALT: () => this.SUBRULE(this.moduleAnnotation) },
    ]);
  });

  /** `constant TAPS: f32[17];`: constant memory, filled by each launch. */
  readonly constantDecl = this.RULE("constantDecl", () => {
    this.CONSUME(CtxConstant);
    this.declaredName();
    this.CONSUME(Colon);
    this.SUBRULE(this.type);
    this.endOfStatement("declaration");
  });

  /** `@flushToZero;`: an option of the whole module; `@launchBounds(256, 2) device_kernel k(...) {...}`: a kernel's annotation. */
  readonly moduleAnnotation = this.RULE("moduleAnnotation", () => {
    this.SUBRULE(this.annotation);
    this.OR([
      {
        ALT: () => {
          this.OPTION(() => this.CONSUME(Export, { LABEL: "kernelExport" }));
          this.SUBRULE(this.kernelDecl);
        },
      },
      { ALT: () => this.endOfStatement("annotation") },
    ]);
  });

  /** `@unroll`, `@unroll(4)`. */
  readonly annotation = this.RULE("annotation", () => {
    this.CONSUME(At);
    this.CONSUME(Identifier, { LABEL: "name" });
    this.OPTION(() => this.SUBRULE(this.argList, { LABEL: "args" }));
  });

  readonly kernelDecl = this.RULE("kernelDecl", () => {
    this.CONSUME(DeviceKernel);
    this.declaredName();
    this.OPTION(() => this.SUBRULE(this.genericParams));
    this.SUBRULE(this.paramList);
    this.SUBRULE(this.block, { LABEL: "body" });
  });

  readonly functionDecl = this.RULE("functionDecl", () => {
    this.CONSUME(DeviceFn);
    this.declaredName();
    this.OPTION2(() => this.SUBRULE(this.genericParams));
    this.SUBRULE(this.paramList);
    this.OPTION(() => {
      this.CONSUME(Colon);
      this.SUBRULE(this.type, { LABEL: "returnType" });
    });
    this.SUBRULE(this.block, { LABEL: "body" });
  });

  readonly paramList = this.RULE("paramList", () => {
    const open = this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.param);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.param);
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RParen, "paramList");
  });

  /** `<T: f32 | f64, BLOCK: i32>` after a kernel's or function's name. */
  readonly genericParams = this.RULE("genericParams", () => {
    const open = this.CONSUME(Less);
    this.SUBRULE(this.genericParam);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.genericParam);
    });
    this.OPTION(() => this.CONSUME2(Comma));
    this.closeWith(open, Greater, "genericParams");
  });

  /**
   * `T: f32 | f64`: a name and its constraint, one or more names separated by `|`; or
   * `OP: device_fn(a: T, b: T): T`, a function parameter and the signature it takes.
   */
  readonly genericParam = this.RULE("genericParam", () => {
    this.declaredName();
    this.CONSUME(Colon);
    this.OR([
      {
        ALT: () => {
          this.CONSUME(DeviceFn, { LABEL: "fnKeyword" });
          this.SUBRULE(this.paramList, { LABEL: "fnParams" });
          this.CONSUME2(Colon, { LABEL: "fnColon" });
          this.SUBRULE(this.type, { LABEL: "fnReturn" });
        },
      },
      {
        ALT: () => {
          this.CONSUME(Identifier, { LABEL: "constraint" });
          this.MANY(() => {
            this.CONSUME(Pipe);
            this.CONSUME2(Identifier, { LABEL: "constraint" });
          });
        },
      },
    ]);
  });

  /** `<f32, 256>`: an instance's arguments, each a unary expression (a type is a name; `(N * 2)` needs its parentheses). */
  readonly genericArgs = this.RULE("genericArgs", () => {
    const open = this.CONSUME(Less);
    this.SUBRULE(this.unary, { LABEL: "args" });
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.unary, { LABEL: "args" });
    });
    this.OPTION(() => this.CONSUME2(Comma));
    this.closeWith(open, Greater, "genericArgs");
  });

  readonly param = this.RULE("param", () => {
    this.declaredName();
    this.CONSUME(Colon);
    this.SUBRULE(this.type);
  });

  readonly constDecl = this.RULE("constDecl", () => {
    this.CONSUME(Const);
    this.declaredName();
    this.OPTION(() => {
      this.CONSUME(Colon);
      this.SUBRULE(this.type);
    });
    this.CONSUME(Eq);
    this.SUBRULE(this.expression, { LABEL: "init" });
    this.endOfStatement("declaration");
  });

  /** `struct Name { a: T; b: U, ... }`: fields separated (or ended) by `;` or `,`. */
  readonly structDecl = this.RULE("structDecl", () => {
    this.CONSUME(CtxStruct);
    this.declaredName();
    const open = this.CONSUME(LCurly);
    this.MANY(() => {
      this.SUBRULE(this.fieldDecl);
      this.OPTION(() => this.OR([{ ALT: () => this.CONSUME(Semi) }, { ALT: () => this.CONSUME(Comma) }]));
    });
    this.closeWith(open, RCurly, "structDecl");
  });

  readonly fieldDecl = this.RULE("fieldDecl", () => {
    this.declaredName();
    this.CONSUME(Colon);
    this.SUBRULE(this.type);
  });

  readonly importDecl = this.RULE("importDecl", () => {
    this.CONSUME(Import);
    const open = this.CONSUME(LCurly);
    this.OPTION(() => {
      this.CONSUME(Identifier, { LABEL: "names" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.CONSUME2(Identifier, { LABEL: "names" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RCurly, "importDecl");
    this.CONSUME(CtxFrom);
    this.CONSUME(StringLit, { LABEL: "path" });
    this.endOfStatement("import");
  });

  readonly launchDecl = this.RULE("launchDecl", () => {
    this.CONSUME(Launch);
    this.CONSUME(Identifier, { LABEL: "kernel" });
    this.OPTION3(() => this.SUBRULE(this.genericArgs, { LABEL: "typeArgs" }));
    const open = this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.launchArg);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.launchArg);
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RParen, "launchDecl");
    this.CONSUME(CtxGrid);
    this.SUBRULE(this.argList, { LABEL: "grid" });
    this.CONSUME(CtxBlock);
    this.SUBRULE2(this.argList, { LABEL: "block" });
    this.OPTION4(() => this.SUBRULE(this.sharedClause));
    this.endOfStatement("launch");
  });

  /** `shared(buf = 256)`: the lengths of a launched kernel's dynamic shared arrays. */
  readonly sharedClause = this.RULE("sharedClause", () => {
    this.CONSUME(Shared);
    const open = this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.launchArg, { LABEL: "lengths" });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.launchArg, { LABEL: "lengths" });
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    this.closeWith(open, RParen, "sharedClause");
  });

  readonly launchArg = this.RULE("launchArg", () => {
    this.declaredName();
    this.CONSUME(Eq);
    this.SUBRULE(this.expression, { LABEL: "value" });
  });

  // ------------------------------------------------------------------ types

  readonly type = this.RULE("type", () => {
    // `shared f32[256]`: a device_fn parameter that is a shared array of the caller's.
    this.OPTION(() => this.CONSUME(Shared));
    this.SUBRULE(this.typeAtom);
    this.MANY(() => {
      const open = this.CONSUME(LBracket);
      // Left out in `shared buf: f32[];`, whose length each launch gives.
      this.OPTION2(() => this.SUBRULE(this.expression, { LABEL: "sizes" }));
      this.closeWith(open, RBracket, "type");
    });
  });

  readonly typeAtom = this.RULE("typeAtom", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(CtxReadonly);
          this.SUBRULE(this.typeAtom, { LABEL: "qualified" });
        },
      },
      {
        ALT: () => {
          this.CONSUME(CtxGlobal);
          this.CONSUME(Less);
          this.SUBRULE(this.type, { LABEL: "elem" });
          this.CONSUME(Greater);
        },
      },
      {
        // `view<f32>`: a device_fn parameter that is part of an array in any memory.
        GATE: () => tokenMatcher(this.LA(2), Less),
        ALT: () => {
          this.CONSUME(CtxView);
          this.CONSUME2(Less);
          this.SUBRULE2(this.type, { LABEL: "viewElem" });
          this.CONSUME2(Greater);
        },
      },
      {
        // `inout f32`, `out f32`: a device_fn parameter that is a reference to the caller's variable or element.
        GATE: () => tokenMatcher(this.LA(2), AnyName),
        ALT: () => {
          this.OR2([{ ALT: () => this.CONSUME(CtxInout, { LABEL: "mode" }) }, { ALT: () => this.CONSUME(CtxOut, { LABEL: "mode" }) }]);
          this.SUBRULE2(this.typeAtom, { LABEL: "referenced" });
        },
      },
      { ALT: () => this.CONSUME(Identifier, { LABEL: "name" }) },
    ]);
  });
}
