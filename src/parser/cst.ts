/**
 * The shapes of the CST that `grammar.ts` builds, written by hand so that `toAst.ts`
 * is typed. Each node lists its children by key (a token type's name, a rule's name or
 * a LABEL from the grammar) and what one child is. After error recovery any child may
 * be missing, so every child list is optional: the AST builder must check each one.
 */
import type { IToken } from "chevrotain";

interface Node<Name extends string, Children> {
  readonly name: Name;
  readonly children: { readonly [K in keyof Children]?: readonly Children[K][] };
  /** Set by chevrotain when the node was cut short by re-sync recovery. */
  readonly recoveredNode?: boolean;
}

type Tok = IToken;

// ---------------------------------------------------------------- module items

export interface ModuleCst extends Node<"module", { item: ItemCst }> {}

export interface ItemCst extends Node<"item", {
  Export: Tok;
  kernelDecl: KernelDeclCst;
  functionDecl: FunctionDeclCst;
  constDecl: ConstDeclCst;
  structDecl: StructDeclCst;
  importDecl: ImportDeclCst;
  launchDecl: LaunchDeclCst;
  constantDecl: ConstantDeclCst;
  moduleAnnotation: ModuleAnnotationCst;
}> {}

export interface ConstantDeclCst extends Node<"constantDecl", { CtxConstant: Tok; name: Tok; Colon: Tok; type: TypeCst; Semi: Tok }> {}

export interface ModuleAnnotationCst extends Node<"moduleAnnotation", { annotation: AnnotationCst; Semi: Tok; kernelExport: Tok; kernelDecl: KernelDeclCst }> {}

export interface AnnotationCst extends Node<"annotation", { At: Tok; name: Tok; args: ArgListCst }> {}

export interface KernelDeclCst extends Node<"kernelDecl", { DeviceKernel: Tok; name: Tok; genericParams: GenericParamsCst; paramList: ParamListCst; body: BlockCst }> {}

export interface FunctionDeclCst extends Node<"functionDecl", {
  DeviceFn: Tok;
  name: Tok;
  genericParams: GenericParamsCst;
  paramList: ParamListCst;
  Colon: Tok;
  returnType: TypeCst;
  body: BlockCst;
}> {}

export interface GenericParamsCst extends Node<"genericParams", { Less: Tok; genericParam: GenericParamCst; Comma: Tok; Greater: Tok }> {}

export interface GenericParamCst extends Node<"genericParam", { name: Tok; Colon: Tok; constraint: Tok; Pipe: Tok; fnKeyword: Tok; fnParams: ParamListCst; fnColon: Tok; fnReturn: TypeCst }> {}

export interface GenericArgsCst extends Node<"genericArgs", { Less: Tok; args: UnaryCst; Comma: Tok; Greater: Tok }> {}

export interface ParamListCst extends Node<"paramList", { LParen: Tok; param: ParamCst; Comma: Tok; RParen: Tok }> {}

export interface ParamCst extends Node<"param", { name: Tok; Colon: Tok; type: TypeCst }> {}

export interface ConstDeclCst extends Node<"constDecl", {
  Const: Tok;
  name: Tok;
  Colon: Tok;
  type: TypeCst;
  Eq: Tok;
  init: ExpressionCst;
  Semi: Tok;
}> {}

export interface StructDeclCst extends Node<"structDecl", { CtxStruct: Tok; name: Tok; LCurly: Tok; fieldDecl: FieldDeclCst; Semi: Tok; Comma: Tok; RCurly: Tok }> {}

export interface FieldDeclCst extends Node<"fieldDecl", { name: Tok; Colon: Tok; type: TypeCst }> {}

export interface ImportDeclCst extends Node<"importDecl", {
  Import: Tok;
  LCurly: Tok;
  names: Tok;
  Comma: Tok;
  RCurly: Tok;
  CtxFrom: Tok;
  path: Tok;
  Semi: Tok;
}> {}

export interface LaunchDeclCst extends Node<"launchDecl", {
  Launch: Tok;
  kernel: Tok;
  typeArgs: GenericArgsCst;
  LParen: Tok;
  launchArg: LaunchArgCst;
  Comma: Tok;
  RParen: Tok;
  CtxGrid: Tok;
  grid: ArgListCst;
  CtxBlock: Tok;
  block: ArgListCst;
  sharedClause: SharedClauseCst;
  Semi: Tok;
}> {}

export interface SharedClauseCst extends Node<"sharedClause", { Shared: Tok; LParen: Tok; lengths: LaunchArgCst; Comma: Tok; RParen: Tok }> {}

export interface LaunchArgCst extends Node<"launchArg", { name: Tok; Eq: Tok; value: ExpressionCst }> {}

// ---------------------------------------------------------------- types

export interface TypeCst extends Node<"type", { Shared: Tok; typeAtom: TypeAtomCst; LBracket: Tok; sizes: ExpressionCst; RBracket: Tok }> {}

export interface TypeAtomCst extends Node<"typeAtom", {
  CtxReadonly: Tok;
  qualified: TypeAtomCst;
  CtxGlobal: Tok;
  Less: Tok;
  elem: TypeCst;
  Greater: Tok;
  CtxView: Tok;
  viewElem: TypeCst;
  mode: Tok;
  referenced: TypeAtomCst;
  name: Tok;
}> {}

// ---------------------------------------------------------------- statements

export interface BlockCst extends Node<"block", { LCurly: Tok; statement: StatementCst; RCurly: Tok }> {}

export interface StatementCst extends Node<"statement", {
  block: BlockCst;
  annotatedStmt: AnnotatedStmtCst;
  varStatement: VarStatementCst;
  sharedDecl: SharedDeclCst;
  ifStmt: IfStmtCst;
  switchStmt: SwitchStmtCst;
  forStmt: ForStmtCst;
  whileStmt: WhileStmtCst;
  doWhileStmt: DoWhileStmtCst;
  breakStmt: BreakStmtCst;
  continueStmt: ContinueStmtCst;
  returnStmt: ReturnStmtCst;
  empty: Tok;
  exprStmt: ExprStmtCst;
}> {}

export interface AnnotatedStmtCst extends Node<"annotatedStmt", { annotation: AnnotationCst; body: StatementCst }> {}

export interface VarStatementCst extends Node<"varStatement", { varDecl: VarDeclCst; Semi: Tok }> {}

export interface VarDeclCst extends Node<"varDecl", { Let: Tok; Const: Tok; declarator: DeclaratorCst; Comma: Tok }> {}

export interface DeclaratorCst extends Node<"declarator", {
  name: Tok;
  Colon: Tok;
  type: TypeCst;
  Eq: Tok;
  init: ExpressionCst;
}> {}

export interface SharedDeclCst extends Node<"sharedDecl", { Shared: Tok; name: Tok; Colon: Tok; type: TypeCst; Semi: Tok }> {}

export interface IfStmtCst extends Node<"ifStmt", {
  If: Tok;
  LParen: Tok;
  cond: ExpressionCst;
  RParen: Tok;
  then: StatementCst;
  Else: Tok;
  else: StatementCst;
}> {}

export interface ForStmtCst extends Node<"forStmt", {
  For: Tok;
  LParen: Tok;
  initDecl: VarDeclCst;
  init: ExpressionCst;
  Semi: Tok;
  cond: ExpressionCst;
  step: ExpressionCst;
  Comma: Tok;
  RParen: Tok;
  body: StatementCst;
}> {}

export interface WhileStmtCst extends Node<"whileStmt", { While: Tok; LParen: Tok; cond: ExpressionCst; RParen: Tok; body: StatementCst }> {}

export interface DoWhileStmtCst extends Node<"doWhileStmt", {
  Do: Tok;
  body: StatementCst;
  While: Tok;
  LParen: Tok;
  cond: ExpressionCst;
  RParen: Tok;
  Semi: Tok;
}> {}

export interface SwitchStmtCst extends Node<"switchStmt", {
  CtxSwitch: Tok;
  LParen: Tok;
  value: ExpressionCst;
  RParen: Tok;
  LCurly: Tok;
  switchCase: SwitchCaseCst;
  RCurly: Tok;
}> {}

export interface SwitchCaseCst extends Node<"switchCase", { CtxCase: Tok; test: ExpressionCst; CtxDefault: Tok; Colon: Tok; body: StatementCst }> {}

export interface BreakStmtCst extends Node<"breakStmt", { Break: Tok; Semi: Tok }> {}

export interface ContinueStmtCst extends Node<"continueStmt", { Continue: Tok; Semi: Tok }> {}

export interface ReturnStmtCst extends Node<"returnStmt", { Return: Tok; value: ExpressionCst; Semi: Tok }> {}

export interface ExprStmtCst extends Node<"exprStmt", { expression: ExpressionCst; Semi: Tok }> {}

// ---------------------------------------------------------------- expressions

export interface ExpressionCst extends Node<"expression", { conditional: ConditionalCst; AssignOp: Tok; value: ExpressionCst }> {}

export interface ConditionalCst extends Node<"conditional", {
  binary: BinaryCst;
  Question: Tok;
  then: ExpressionCst;
  Colon: Tok;
  else: ExpressionCst;
}> {}

/** Operands and operators alternate: `unary[0] BinaryOp[0] unary[1] ...`. */
export interface BinaryCst extends Node<"binary", { unary: UnaryCst; BinaryOp: Tok }> {}

/** Prefix operators, outermost first, then the operand. */
export interface UnaryCst extends Node<"unary", { PrefixOp: Tok; postfix: PostfixCst }> {}

export interface PostfixCst extends Node<"postfix", { primary: PrimaryCst; postfixOp: PostfixOpCst }> {}

/** One of: a call's arguments (after a generic call's `<...>`), `[index]`, `.member`, `++`, `--`. */
export interface PostfixOpCst extends Node<"postfixOp", {
  call: ArgListCst;
  /** `<f32>` before `call`: a generic call. */
  typeArgs: GenericArgsCst;
  LBracket: Tok;
  index: ExpressionCst;
  RBracket: Tok;
  Dot: Tok;
  member: Tok;
  PlusPlus: Tok;
  MinusMinus: Tok;
}> {}

export interface PrimaryCst extends Node<"primary", {
  NumberLit: Tok;
  True: Tok;
  False: Tok;
  Identifier: Tok;
  parenExpr: ParenExprCst;
  arrayLit: ArrayLitCst;
  objectLit: ObjectLitCst;
}> {}

export interface ObjectLitCst extends Node<"objectLit", { LCurly: Tok; fields: ObjectFieldCst; Comma: Tok; RCurly: Tok }> {}

export interface ObjectFieldCst extends Node<"objectField", { name: Tok; Colon: Tok; value: ExpressionCst }> {}

export interface ParenExprCst extends Node<"parenExpr", { LParen: Tok; expression: ExpressionCst; RParen: Tok }> {}

export interface ArrayLitCst extends Node<"arrayLit", { LBracket: Tok; elements: ExpressionCst; Comma: Tok; RBracket: Tok }> {}

export interface ArgListCst extends Node<"argList", { LParen: Tok; args: ExpressionCst; Comma: Tok; RParen: Tok }> {}
