/// The names of the flow's forms libjump submits (the capture*FormName keys; the social registration form is
/// EngageSettings'), each the key's value or its default: the flow file describes each form's fields.
struct FormNames: Sendable {
    let signIn, registration, editProfile, changePassword, forgotPassword, resendVerification: String

    init(_ config: JumpConfig) {
        signIn = config.defaulted(.captureTraditionalSignInFormName)
        registration = config.defaulted(.captureTraditionalRegistrationFormName)
        editProfile = config.defaulted(.captureEditUserProfileFormName)
        changePassword = config.defaulted(.captureChangePasswordFormName)
        forgotPassword = config.defaulted(.captureForgotPasswordFormName)
        resendVerification = config.defaulted(.captureResendEmailVerificationFormName)
    }
}
