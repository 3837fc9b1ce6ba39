// The unit a forecast is requested in is part of this client's API: whoever calls it has the type.
@_exported import Units
