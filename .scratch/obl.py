# slug: [(appliesTo, kind, deadline, source-sentence prefix, what)]
O = {
"npci-2025-01-09-upi-transaction-id-alphanumeric": [
 ("PSP","prohibition","2025-02-01","Building on its earlier circular OC 193","Stop sending UPI transactions whose transaction ID contains special characters: the central system rejects them."),
 ("PSP","new-requirement",None,"Transaction IDs must be alphanumeric only","Generate alphanumeric-only UPI transaction IDs, as the technical specifications require."),
],
"npci-2025-02-27-upi-lite-revised-limits": [
 ("Issuer","new-requirement","2025-06-30","Issuer banks live on UPI Lite must identify","Find UPI Lite accounts with no transactions in six months and return their balances to the linked bank account."),
],
"npci-2025-04-24-beneficiary-name-verification": [
 ("PSP","new-requirement",None,"In this addendum to OC-101","Show the payer only the beneficiary's name from the bank's core banking system, fetched through the Validate Address API."),
 ("PSP","prohibition","2025-06-30","Apps may no longer display a name","Stop showing names from QR codes or chosen by the payee, and remove options to change the beneficiary name."),
],
"npci-2025-04-26-upi-api-response-times": [
 ("PSP","new-requirement","2025-06-16","From 16 June 2025, banks and PSPs must respond","Answer UPI API calls within the shorter response times."),
 ("PSP","new-requirement",None,"Participants must make the change","Make the change without raising technical decline rates."),
],
"npci-2025-05-21-upi-api-usage-limits": [
 ("PSP","new-requirement","2025-07-31","PSP banks and acquiring banks must monitor","Monitor and throttle the API traffic sent to UPI for the ten most-used APIs."),
 ("PSP","new-requirement",None,"Balance enquiries are limited to 50","Keep balance enquiries and list-account requests within the per-app limits, restrict calls not initiated by the customer in peak hours, and run autopay debits outside them."),
 ("PSP","reporting","2025-08-31","PSPs had to submit an undertaking","Submit an undertaking to NPCI."),
],
"npci-2025-07-29-p2p-collect-discontinued": [
 ("PSP","prohibition","2025-10-01","Member banks, PSPs and UPI apps had to update","Update systems so that P2P collect requests can no longer be started, passed on or processed."),
],
"npci-2025-10-07-upi-autopay-mandate-portability": [
 ("PSP","new-requirement","2025-12-31","NPCI told member banks and UPI apps","Let users see all their active UPI AutoPay mandates in any UPI app and port them to another app."),
 ("PSP","prohibition",None,"Apps may not use cashback","Do not use cashback, banners or other nudges to win mandates over, nor mandate data for any other purpose."),
],
"npci-2025-10-07-upi-biometric-face-authentication": [
 ("PSP","new-requirement",None,"Apps must take the user's explicit consent","Take the user's explicit consent for biometric authentication, and again after every device binding."),
 ("PSP","prohibition",None,"The option may not be offered on rooted","Do not offer the option on rooted or jail-broken phones; switch it off when the PIN changes and let it lapse after 90 days without use."),
],
"rbi-2016-02-25-kyc-master-direction": [
 ("all","new-requirement",None,"The Master Direction lays down how every entity","Identify customers, carry out customer due diligence and monitor transactions as the Master Direction lays down."),
],
"rbi-2017-07-06-customer-liability-unauthorised-transactions": [
 ("Issuer","new-requirement","within 10 working days of the customer's notice","Once the customer notifies the bank","Credit the amount of an unauthorised transaction to the customer's account within 10 working days of being notified."),
],
"rbi-2019-08-21-e-mandate-cards-recurring": [
 ("Issuer","new-requirement",None,"Additional-factor authentication (AFA) is required","Require additional-factor authentication when a mandate is registered and for its first transaction."),
 ("Issuer","prohibition",None,"Each such transaction was capped","Keep each such transaction within the cap and do not charge cardholders for the facility."),
],
"rbi-2019-09-20-failed-transactions-tat-compensation": [
 ("all","new-requirement",None,"If a failed transaction is not reversed","Compensate the customer automatically, without a complaint, when a failed transaction is not reversed within the turn-around time."),
 ("all","new-requirement","T+1 for UPI and IMPS credits; T+5 for ATM withdrawals","For example, failed UPI and IMPS credits must be reversed","Reverse failed UPI and IMPS credits by T+1 and failed ATM withdrawals by T+5."),
],
"rbi-2020-03-17-payment-aggregators-gateways-guidelines": [
 ("Aggregator","new-requirement",None,"Existing PAs were given separate timelines","Obtain RBI authorisation and meet the net-worth requirements within the timelines given."),
 ("Aggregator","prohibition",None,"Read together with later circulars","Do not store customers' card credentials, nor let onboarded merchants store them."),
],
"rbi-2020-08-06-online-dispute-resolution": [
 ("PSP","new-requirement","2021-01-01","Authorised payment system operators, whether banks","Build a system-driven, rule-based online dispute resolution mechanism for failed transactions and give participants access to it."),
 ("PSP","new-requirement",None,"For UPI, third-party apps must offer","Offer a way to complain from within the UPI app."),
],
"rbi-2021-03-31-e-mandate-framework-extension": [
 ("all","deadline-extension","2021-09-30","Because existing and new recurring mandates","Bring recurring mandates into full compliance with the e-mandate framework by the extended date."),
 ("all","prohibition",None,"In the meantime, no new recurring mandates","Do not register new recurring mandates that do not comply with the framework."),
],
"rbi-2021-03-31-pa-pg-guidelines-follow-up": [
 ("Aggregator","prohibition",None,"RBI's September 2021 card-on-file tokenisation circular refers","Do not store customers' card credentials, nor let your merchants store them."),
],
"rbi-2021-08-27-prepaid-payment-instruments-directions": [
 ("Issuer","new-requirement",None,"The Master Directions are a single framework","Meet the authorisation, eligibility, capital, KYC/AML, interoperability and customer-protection rules for PPI issuers."),
],
"rbi-2021-09-07-card-on-file-tokenisation": [
 ("all","new-requirement",None,"A token may be created only","Create a card-on-file token only with the cardholder's explicit consent, confirmed by an additional factor."),
 ("Aggregator","prohibition","2022-01-01","Apart from card issuers and card networks","Stop storing actual card data and purge any already held."),
],
"rbi-2021-11-12-integrated-ombudsman-scheme": [
 ("all","new-requirement","within 30 days of the complaint","It covers banks, NBFCs, payment system participants","Resolve complaints first made to you; unresolved after 30 days they can go to the RBI Ombudsman."),
],
"rbi-2022-01-03-offline-small-value-payments": [
 ("all","new-requirement",None,"Payment system operators and issuers or acquirers may offer","Take the customer's explicit consent before enabling offline payments."),
 ("all","new-requirement",None,"At launch each payment could be at most","Keep offline payments within the per-payment and combined limits, restored online with AFA."),
],
"rbi-2023-05-04-kyc-master-direction-amendment": [
 ("all","amendment",None,"RBI updated the KYC Master Direction","Apply the updated KYC Master Direction."),
],
"rbi-2023-10-31-cross-border-payment-aggregators": [
 ("Aggregator","new-requirement","2024-04-30","Non-banks already providing the service had to apply","Apply for authorisation as a cross-border payment aggregator."),
 ("Aggregator","new-requirement","2026-03-31","They needed a net worth of","Hold the required net worth when applying, and the higher figure by the later date."),
],
"rbi-2023-12-20-coft-through-card-issuers": [
 ("Issuer","new-requirement",None,"Explicit consent and additional-factor authentication are still required","Take explicit consent and additional-factor authentication for tokens created at the issuer."),
 ("Issuer","reporting",None,"Issuers must publish the list of merchants","Publish the list of merchants for which you offer tokenisation; show such tokens on the merchant's payment page."),
],
"rbi-2024-03-06-card-network-choice": [
 ("Issuer","prohibition",None,"Card issuers may not sign agreements","Do not sign agreements with card networks that stop you from using other networks."),
 ("Issuer","new-requirement","within six months of the circular's date","Issuers must let eligible customers choose","Let eligible customers choose a card network at issue, and existing cardholders at renewal."),
],
"rbi-2024-07-30-cyber-resilience-payment-security": [
 ("PSP","new-requirement",None,"All authorised non-bank payment system operators (PSOs) must have","Put in place board-approved information-security and cyber-risk governance, baseline controls and digital-payment security measures."),
 ("PSP","new-requirement",None,"PSOs must also make their unregulated ecosystem partners","Make unregulated ecosystem partners comply with the directions."),
 ("Aggregator","new-requirement","2025-04-01","Compliance is phased by size","Large payment system operators, including payment aggregators, comply by the first date; medium and small ones later."),
],
"rbi-2024-12-04-upi-lite-limits": [
 ("Issuer","amendment",None,"RBI increased the UPI Lite limits","Apply the higher UPI Lite per-transaction and balance limits."),
],
"rbi-2025-05-08-digital-lending-directions": [
 ("all","new-requirement",None,"Lenders must carry out due diligence","Carry out due diligence on LSPs, give a Key Fact Statement, keep funds flowing directly between lender and borrower, and offer a cooling-off period."),
 ("all","new-requirement","2025-06-15","Most provisions apply immediately","Apply paragraph 17 from its start date and paragraph 6 from its later one."),
],
"rbi-2025-09-15-payment-aggregators-master-direction": [
 ("Aggregator","new-requirement",None,"Non-bank aggregators must be authorised","Be authorised, meet the net-worth requirement, keep customer funds in escrow with a scheduled commercial bank and follow the merchant KYC and settlement rules."),
 ("Aggregator","new-requirement","2025-09-15","The Master Direction brings online","Follow the single set of rules for online, physical and cross-border payment aggregation."),
],
"rbi-2025-09-25-authentication-mechanisms-directions": [
 ("all","new-requirement","2026-04-01","Unless an exemption applies","Authenticate every digital payment with at least two distinct factors, one of them dynamic."),
 ("Issuer","new-requirement","2026-10-01","The directions apply from 1 April 2026","Meet the cross-border risk-based authentication requirements."),
 ("Issuer","new-requirement",None,"SMS OTP is no longer the only option","Be able to validate additional-factor authentication for one-off cross-border card-not-present payments when the foreign merchant or acquirer asks."),
],
"rbi-2025-10-29-cross-border-inward-payments-draft": [
 ("all","new-requirement",None,"Under the draft, banks would inform","Inform customers of inward payments on arrival, reconcile nostro credits in near real time and credit payments the same business day (proposed)."),
],
"rbi-2025-11-28-digital-banking-channels-authorisation": [
 ("all","new-requirement","2026-01-01","These directions bring commercial banks","Commercial banks: obtain authorisation for internet and mobile banking."),
 ("all","new-requirement",None,"Banks must take the customer's explicit consent","Take explicit consent before activating a digital channel, do not tie enrolment to other products, and send transaction alerts."),
],
"rbi-2025-11-28-master-directions-consolidation": [
 ("all","repeal",None,"The single KYC Master Direction of 2016","Follow the KYC directions for your kind of entity, which replace the repealed 2016 Master Direction."),
 ("all","amendment",None,"Compliance teams should update policy documents","Update policy documents that cite withdrawn circulars."),
],
"rbi-2025-12-29-commercial-banks-kyc-amendment": [
 ("all","amendment",None,"The regulated entity that last uploaded","Verify the identity and address of customers whose CKYCR record you last uploaded or updated."),
],
"rbi-2026-01-16-integrated-ombudsman-scheme-2026": [
 ("all","new-requirement","2026-07-01","The Integrated Ombudsman Scheme, 2026 replaces","Follow the 2026 scheme, with its higher awards, in place of the 2021 scheme."),
],
"rbi-2026-03-06-customer-liability-digital-fraud-draft": [
 ("Issuer","new-requirement",None,"The draft extends protection","Compensate customers for promptly reported small frauds as the draft proposes (proposed)."),
],
"rbi-2026-04-21-e-mandate-framework-2026": [
 ("all","new-requirement","2026-04-21","Registering a mandate and the first debit","Require AFA for registering a mandate and its first debit; later debits within the limit need none."),
 ("Issuer","new-requirement",None,"Issuers must send a pre-debit alert","Send a pre-debit alert at least 24 hours before each debit and a post-debit alert with grievance details."),
 ("Issuer","prohibition",None,"Customers must be able to opt out","Let customers opt out of or revoke a mandate, and do not charge for the facility."),
],
"rbi-2026-04-22-ppi-master-direction-draft": [
 ("Issuer","new-requirement",None,"Banks allowed to issue debit cards would only","Banks issuing debit cards would inform RBI instead of seeking approval to issue PPIs (proposed)."),
],
"rbi-2026-06-24-fraud-customer-protection-amendment-directions": [
 ("Issuer","new-requirement","2027-01-01","Customers bear no liability where the bank","Bear the loss where the bank was negligent or a third party breached, prove any customer liability, and compensate certain small-value frauds."),
],
"sebi-2025-06-11-validated-upi-ids": [
 ("all","new-requirement","2025-10-01","SEBI-registered intermediaries that deal with investors","SEBI-registered intermediaries: collect money through structured '@valid' UPI IDs."),
 ("PSP","new-requirement",None,"Banks acting as SCSBs and UPI PSPs must support","Support the '@valid' handles."),
],
}
