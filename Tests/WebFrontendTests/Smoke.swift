import Testing
import WebFrontend
