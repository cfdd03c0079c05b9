package analyzer

// Kind is the type of a syntax node. Only the Python node types that the
// semantic model and the rules look at have their own Kind; every other
// named node is KindOther, and anonymous tokens kept because they fill a
// field (operators) are KindToken.
type Kind uint16

// The node kinds, named after tree-sitter-python's node types.
const (
	KindOther Kind = iota
	KindToken
	KindError
	KindModule
	KindComment
	KindImportStatement
	KindImportFromStatement
	KindFutureImportStatement
	KindAliasedImport
	KindDottedName
	KindRelativeImport
	KindWildcardImport
	KindFunctionDefinition
	KindClassDefinition
	KindDecoratedDefinition
	KindDecorator
	KindParameters
	KindLambdaParameters
	KindParameter
	KindDefaultParameter
	KindTypedParameter
	KindTypedDefaultParameter
	KindListSplatPattern
	KindDictionarySplatPattern
	KindBlock
	KindExpressionStatement
	KindAssignment
	KindAugmentedAssignment
	KindReturnStatement
	KindDeleteStatement
	KindGlobalStatement
	KindNonlocalStatement
	KindForStatement
	KindWhileStatement
	KindIfStatement
	KindElifClause
	KindElseClause
	KindTryStatement
	KindExceptClause
	KindFinallyClause
	KindWithStatement
	KindWithClause
	KindWithItem
	KindAsPattern
	KindAsPatternTarget
	KindMatchStatement
	KindCall
	KindArgumentList
	KindKeywordArgument
	KindListSplat
	KindDictionarySplat
	KindAttribute
	KindSubscript
	KindIdentifier
	KindBinaryOperator
	KindUnaryOperator
	KindBooleanOperator
	KindNotOperator
	KindComparisonOperator
	KindConditionalExpression
	KindParenthesizedExpression
	KindNamedExpression
	KindLambda
	KindAwait
	KindYield
	KindList
	KindTuple
	KindSet
	KindDictionary
	KindPair
	KindExpressionList
	KindPatternList
	KindTuplePattern
	KindListPattern
	KindListComprehension
	KindSetComprehension
	KindDictionaryComprehension
	KindGeneratorExpression
	KindForInClause
	KindIfClause
	KindString
	KindConcatenatedString
	KindInteger
	KindFloat
	KindTrue
	KindFalse
	KindNone
	KindEllipsis
	KindPrintStatement
	KindExecStatement
	KindBreakStatement
	KindContinueStatement
	KindRaiseStatement
	KindAssertStatement
	KindInterpolation
	KindGenericType   // `Callable[[int], str]` in an annotation
	KindUnionType     // `A | None` in an annotation
	KindTypeParameter // the `[[int], str]` of a generic type
	KindType          // an annotation, or one of a type parameter's types
	// KindLineContinuation: a `\` that ends a line inside a statement;
	// no child of the node it sits in, as a comment is not.
	KindLineContinuation
	kindCount
)

var kindNames = [kindCount]string{
	KindOther:                   "other",
	KindToken:                   "token",
	KindError:                   "ERROR",
	KindModule:                  "module",
	KindComment:                 "comment",
	KindImportStatement:         "import_statement",
	KindImportFromStatement:     "import_from_statement",
	KindFutureImportStatement:   "future_import_statement",
	KindAliasedImport:           "aliased_import",
	KindDottedName:              "dotted_name",
	KindRelativeImport:          "relative_import",
	KindWildcardImport:          "wildcard_import",
	KindFunctionDefinition:      "function_definition",
	KindClassDefinition:         "class_definition",
	KindDecoratedDefinition:     "decorated_definition",
	KindDecorator:               "decorator",
	KindParameters:              "parameters",
	KindLambdaParameters:        "lambda_parameters",
	KindParameter:               "parameter",
	KindDefaultParameter:        "default_parameter",
	KindTypedParameter:          "typed_parameter",
	KindTypedDefaultParameter:   "typed_default_parameter",
	KindListSplatPattern:        "list_splat_pattern",
	KindDictionarySplatPattern:  "dictionary_splat_pattern",
	KindBlock:                   "block",
	KindExpressionStatement:     "expression_statement",
	KindAssignment:              "assignment",
	KindAugmentedAssignment:     "augmented_assignment",
	KindReturnStatement:         "return_statement",
	KindDeleteStatement:         "delete_statement",
	KindGlobalStatement:         "global_statement",
	KindNonlocalStatement:       "nonlocal_statement",
	KindForStatement:            "for_statement",
	KindWhileStatement:          "while_statement",
	KindIfStatement:             "if_statement",
	KindElifClause:              "elif_clause",
	KindElseClause:              "else_clause",
	KindTryStatement:            "try_statement",
	KindExceptClause:            "except_clause",
	KindFinallyClause:           "finally_clause",
	KindWithStatement:           "with_statement",
	KindWithClause:              "with_clause",
	KindWithItem:                "with_item",
	KindAsPattern:               "as_pattern",
	KindAsPatternTarget:         "as_pattern_target",
	KindMatchStatement:          "match_statement",
	KindCall:                    "call",
	KindArgumentList:            "argument_list",
	KindKeywordArgument:         "keyword_argument",
	KindListSplat:               "list_splat",
	KindDictionarySplat:         "dictionary_splat",
	KindAttribute:               "attribute",
	KindSubscript:               "subscript",
	KindIdentifier:              "identifier",
	KindBinaryOperator:          "binary_operator",
	KindUnaryOperator:           "unary_operator",
	KindBooleanOperator:         "boolean_operator",
	KindNotOperator:             "not_operator",
	KindComparisonOperator:      "comparison_operator",
	KindConditionalExpression:   "conditional_expression",
	KindParenthesizedExpression: "parenthesized_expression",
	KindNamedExpression:         "named_expression",
	KindLambda:                  "lambda",
	KindAwait:                   "await",
	KindYield:                   "yield",
	KindList:                    "list",
	KindTuple:                   "tuple",
	KindSet:                     "set",
	KindDictionary:              "dictionary",
	KindPair:                    "pair",
	KindExpressionList:          "expression_list",
	KindPatternList:             "pattern_list",
	KindTuplePattern:            "tuple_pattern",
	KindListPattern:             "list_pattern",
	KindListComprehension:       "list_comprehension",
	KindSetComprehension:        "set_comprehension",
	KindDictionaryComprehension: "dictionary_comprehension",
	KindGeneratorExpression:     "generator_expression",
	KindForInClause:             "for_in_clause",
	KindIfClause:                "if_clause",
	KindString:                  "string",
	KindConcatenatedString:      "concatenated_string",
	KindInteger:                 "integer",
	KindFloat:                   "float",
	KindTrue:                    "true",
	KindFalse:                   "false",
	KindNone:                    "none",
	KindEllipsis:                "ellipsis",
	KindPrintStatement:          "print_statement",
	KindExecStatement:           "exec_statement",
	KindBreakStatement:          "break_statement",
	KindContinueStatement:       "continue_statement",
	KindRaiseStatement:          "raise_statement",
	KindAssertStatement:         "assert_statement",
	KindInterpolation:           "interpolation",
	KindGenericType:             "generic_type",
	KindUnionType:               "union_type",
	KindTypeParameter:           "type_parameter",
	KindType:                    "type",
	KindLineContinuation:        "line_continuation",
}

func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return "invalid"
}

// Field is the name a node fills in its parent (tree-sitter's field).
type Field uint16

// The fields the model and rules read.
const (
	FieldNone Field = iota
	FieldAlias
	FieldAlternative
	FieldArgument
	FieldArguments
	FieldAttribute
	FieldBody
	FieldCondition
	FieldConsequence
	FieldDefinition
	FieldFunction
	FieldKey
	FieldLeft
	FieldModuleName
	FieldName
	FieldObject
	FieldOperator
	FieldOperators
	FieldParameters
	FieldRight
	FieldSubscript
	FieldSuperclasses
	FieldType
	FieldValue
	FieldReturnType
	FieldOther
	fieldCount
)

var fieldNamesByID = [fieldCount]string{
	FieldNone: "", FieldAlias: "alias", FieldAlternative: "alternative", FieldArgument: "argument",
	FieldArguments: "arguments", FieldAttribute: "attribute", FieldBody: "body", FieldCondition: "condition",
	FieldConsequence: "consequence", FieldDefinition: "definition", FieldFunction: "function", FieldKey: "key",
	FieldLeft: "left", FieldModuleName: "module_name", FieldName: "name", FieldObject: "object",
	FieldOperator: "operator", FieldOperators: "operators", FieldParameters: "parameters", FieldRight: "right",
	FieldSubscript: "subscript", FieldSuperclasses: "superclasses", FieldType: "type", FieldValue: "value",
	FieldReturnType: "return_type", FieldOther: "other",
}

func (f Field) String() string {
	if f < fieldCount {
		return fieldNamesByID[f]
	}
	return "invalid"
}

// symbolKind and fieldID translate tree-sitter's numbering into ours.
var (
	symbolKind []Kind
	fieldID    []Field
)

// tsErrorSymbol is ts_builtin_sym_error.
const tsErrorSymbol = 0xFFFF

// buildKindTables maps the grammar's numbering onto Kind and Field.
func buildKindTables() {
	byName := make(map[string]Kind, kindCount)
	for k, name := range kindNames {
		byName[name] = Kind(k)
	}
	delete(byName, "other")
	delete(byName, "token")
	symbolKind = make([]Kind, len(symbolNames))
	for i, name := range symbolNames {
		if k, ok := byName[name]; ok {
			symbolKind[i] = k
		}
	}
	fieldByName := make(map[string]Field, fieldCount)
	for f, name := range fieldNamesByID {
		if name != "" {
			fieldByName[name] = Field(f)
		}
	}
	fieldID = make([]Field, len(fieldNames))
	for i, name := range fieldNames {
		if f, ok := fieldByName[name]; ok {
			fieldID[i] = f
		} else if name != "" {
			fieldID[i] = FieldOther
		}
	}
}
