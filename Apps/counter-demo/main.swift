import ComposableArchitecture
print("placeholder")
