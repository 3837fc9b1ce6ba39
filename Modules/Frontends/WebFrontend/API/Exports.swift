// JSONValue is part of the API a web adapter writes against (an action's fields, a view's values).
@_exported import JSON
